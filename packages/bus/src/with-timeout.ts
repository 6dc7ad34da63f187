/**
 * Runs work with an AbortSignal that fires after `timeoutMs` (or when `outer` fires); the
 * returned promise rejects with timeoutError() at that moment even if the work ignores the signal.
 */
export function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, timeoutError: () => Error): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = timeoutError();
      controller.abort(error);
      reject(error);
    }, Math.max(0, timeoutMs));
    work(controller.signal).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
