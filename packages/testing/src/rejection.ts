/**
 * What `promise` rejected with; fails the test when it fulfils instead, or (with `type`) when it
 * rejects with something else. For asserting on an error's fields: `expect(await
 * rejectionOf(call(), AppError)).toMatchObject({ code: "..." })`.
 */
export async function rejectionOf<T = unknown>(promise: Promise<unknown>, type?: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await promise;
  } catch (error) {
    if (type && !(error instanceof type)) throw error;
    return error as T;
  }
  throw new Error("expected a rejection, but the promise fulfilled");
}
