/**
 * A value that comes and goes (the current channel of a component): callers wait for it with a
 * deadline instead of failing at once while the connection recovers.
 */
export class Slot<T> {
  private value: T | null = null;
  private readonly waiters = new Set<(value: T) => void>();

  current(): T | null {
    return this.value;
  }

  set(value: T): void {
    this.value = value;
    for (const wake of [...this.waiters]) wake(value);
  }

  /** Empties the slot if it still holds `value` (or anything, when no value is given). */
  clear(value?: T): void {
    if (value === undefined || this.value === value) this.value = null;
  }

  wait(timeoutMs: number, timeoutError: () => Error): Promise<T> {
    if (this.value !== null) return Promise.resolve(this.value);
    return new Promise<T>((resolve, reject) => {
      const wake = (value: T) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(timeoutError());
      }, Math.max(0, timeoutMs));
      this.waiters.add(wake);
    });
  }
}
