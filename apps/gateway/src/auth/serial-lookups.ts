/**
 * Runs tasks one at a time per subject (in arrival order), different subjects independently, with
 * at most `maxWaiting` tasks waiting per subject behind the one running.
 * The auth middleware runs key lookups of an address that is over its failure limit through it,
 * so that a guessing flood from one address keeps at most one key-store query in flight per
 * gateway replica, while a valid key from that address is still looked up and served; the bound
 * keeps the flood from parking an ever longer line of requests (and their sockets) in memory.
 */
export interface SerialLookups {
  /** The task's result, or undefined (the task is not run) when the subject's line is full. */
  run<T>(subject: string, task: () => Promise<T>): Promise<T> | undefined;
  /** Subjects with a task running or waiting (for tests). */
  readonly size: number;
}

/** Lookups allowed to wait per address and replica behind the one running (AUTH_LOOKUP_QUEUE_LIMIT). */
export const DEFAULT_LOOKUP_QUEUE_LIMIT = 16;

export function createSerialLookups(maxWaiting: number = DEFAULT_LOOKUP_QUEUE_LIMIT): SerialLookups {
  const lines = new Map<string, { tail: Promise<unknown>; pending: number }>();
  return {
    run(subject, task) {
      const line = lines.get(subject) ?? { tail: Promise.resolve(), pending: 0 };
      // `pending` counts the running task too: the one running plus maxWaiting behind it.
      if (line.pending > maxWaiting) return undefined;
      line.pending++;
      const result = line.tail.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      line.tail = tail;
      lines.set(subject, line);
      void tail.then(() => {
        line.pending--;
        if (line.pending === 0 && lines.get(subject) === line) lines.delete(subject);
      });
      return result;
    },
    get size() {
      return lines.size;
    },
  };
}
