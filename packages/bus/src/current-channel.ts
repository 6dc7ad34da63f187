/**
 * A value that comes and goes (the current channel of a component): callers wait for it with a
 * deadline instead of failing at once while the connection recovers.
 */
export class Slot<T> {
  private value: T | null = null;
  private closedWith: Error | null = null;
  private readonly waiters = new Set<{ wake: (value: T) => void; fail: (error: Error) => void }>();

  current(): T | null {
    return this.value;
  }

  set(value: T): void {
    this.value = value;
    for (const waiter of [...this.waiters]) waiter.wake(value);
  }

  /** Empties the slot for good: waiting and later callers get `error`. */
  close(error: Error): void {
    this.value = null;
    this.closedWith = error;
    for (const waiter of [...this.waiters]) waiter.fail(error);
  }

  /** Empties the slot if it still holds `value` (or anything, when no value is given). */
  clear(value?: T): void {
    if (value === undefined || this.value === value) this.value = null;
  }

  wait(timeoutMs: number, timeoutError: () => Error): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.value !== null) return Promise.resolve(this.value);
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        wake: (value: T) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(value);
        },
        fail: (error: Error) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          reject(error);
        },
      };
      const timer = setTimeout(() => waiter.fail(timeoutError()), Math.max(0, timeoutMs));
      this.waiters.add(waiter);
    });
  }
}
