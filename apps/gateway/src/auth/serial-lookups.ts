/**
 * Runs tasks one at a time per subject (in arrival order), different subjects independently.
 * The auth middleware runs key lookups of an address that is over its failure limit through it,
 * so that a guessing flood from one address keeps at most one key-store query in flight per
 * gateway replica, while a valid key from that address is still looked up and served.
 */
export interface SerialLookups {
  run<T>(subject: string, task: () => Promise<T>): Promise<T>;
  /** Subjects with a task running or waiting (for tests). */
  readonly size: number;
}

export function createSerialLookups(): SerialLookups {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(subject, task) {
      const previous = tails.get(subject) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(subject, tail);
      void tail.then(() => {
        if (tails.get(subject) === tail) tails.delete(subject);
      });
      return result;
    },
    get size() {
      return tails.size;
    },
  };
}
