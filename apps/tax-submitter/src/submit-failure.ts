import { AuthorityRequestError, AuthorityUnavailableError, SubmissionBlockedError } from "@dormant/authority-client";
import { AppError } from "@dormant/contracts";

/** What the submit RPC answered when it failed, as a label for metrics and logs. */
export type SubmitFailureKind = "refused" | "unavailable" | "in_doubt" | "in_progress" | "internal";

/**
 * The AppError a failed submit answers with (the filing service turns TAX_* codes into 502s):
 * - the authority unavailable, failing or the breaker open, nothing sent or taken: TAX_UNAVAILABLE,
 *   retryable, with retryAfterSeconds (the breaker's remaining open time, the authority's
 *   Retry-After, or the breaker's reset time);
 * - an attempt that may have reached the authority without an answer (timeout after sending),
 *   now or earlier: TAX_UNAVAILABLE, not retryable: this part is never sent again;
 * - another attempt at the same part still in progress: TAX_UNAVAILABLE, retryable after 5 s;
 * - classified refusals (TAX_AUTH_FAILED, ...) as they were thrown;
 * - anything else (Redis, the bus, an HTTP 4xx): SERVICE_UNAVAILABLE or INTERNAL_ERROR.
 * Messages are safe to show to API clients (no host names, no authority internals).
 */
export function submitFailure(error: unknown, defaultRetryAfterSeconds: number): { error: AppError; kind: SubmitFailureKind } {
  if (error instanceof AppError) return { error, kind: "refused" };
  if (error instanceof SubmissionBlockedError) {
    return error.state === "in_progress"
      ? { error: new AppError("TAX_UNAVAILABLE", "This part is being submitted by another request; try again shortly.", { retryAfterSeconds: 5 }), kind: "in_progress" }
      : { error: inDoubt(), kind: "in_doubt" };
  }
  if (error instanceof AuthorityUnavailableError) {
    if (error.maybeReceived) return { error: inDoubt(), kind: "in_doubt" };
    return {
      error: new AppError("TAX_UNAVAILABLE", "The tax authority is unavailable; nothing was submitted. Try again later.", {
        retryable: true,
        retryAfterSeconds: error.retryAfterSeconds ?? defaultRetryAfterSeconds,
      }),
      kind: "unavailable",
    };
  }
  if (error instanceof AuthorityRequestError) {
    return { error: new AppError("INTERNAL_ERROR", "The tax authority refused the request as malformed.", { retryable: false }), kind: "internal" };
  }
  return { error: new AppError("SERVICE_UNAVAILABLE", "The submission could not be recorded; nothing was submitted.", { retryable: true }), kind: "internal" };
}

function inDoubt(): AppError {
  return new AppError(
    "TAX_UNAVAILABLE",
    "The tax authority did not answer the submission in time; it may have been received, so this part is not submitted again.",
    { retryable: false },
  );
}
