/**
 * Runs work with an AbortSignal that fires after `timeoutMs`; the returned promise rejects with
 * timeoutError() at that moment even if the work ignores the signal (or throws synchronously).
 */
export function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, timeoutError: () => Error): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        const error = timeoutError();
        controller.abort(error);
        reject(error);
      },
      Math.max(0, timeoutMs),
    );
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    Promise.resolve()
      .then(() => work(controller.signal))
      .then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
  });
}
