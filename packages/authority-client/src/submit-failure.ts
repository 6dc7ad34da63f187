import { AppError, type ErrorCode } from "@dormant/contracts";
import { AuthorityCallAbortedError, AuthorityRequestError, AuthorityUnavailableError } from "./errors.ts";
import { SubmissionBlockedError } from "./submit-once.ts";

/** Why a submit RPC failed, as a label for logs. */
export type SubmitFailureKind = "refused" | "unavailable" | "in_doubt" | "in_progress" | "internal";

export interface SubmitFailureOptions {
  /** TAX_UNAVAILABLE or REGISTRY_UNAVAILABLE. */
  unavailableCode: Extract<ErrorCode, "TAX_UNAVAILABLE" | "REGISTRY_UNAVAILABLE">;
  /** "tax authority" or "registry", for the messages. */
  authority: string;
  /** When neither the breaker nor the authority said how long to wait (the breaker's reset time). */
  defaultRetryAfterSeconds: number;
  /**
   * What an attempt that may have reached the authority without an answer means for a repeat:
   * "never" (the authority would take it twice: answer not retryable) or "safe" (the authority
   * refuses a duplicate itself: answer retryable).
   */
  repeatInDoubt: "never" | "safe";
}

/**
 * The AppError a failed submit RPC answers with (the filing service turns the *_UNAVAILABLE and
 * TAX_AUTH_FAILED codes into 502s):
 * - the authority unavailable or failing, or the breaker open, nothing taken: *_UNAVAILABLE,
 *   retryable, retryAfterSeconds from the breaker (time left open), the authority (Retry-After)
 *   or the default;
 * - an attempt that may have reached the authority without an answer (a timeout after sending),
 *   now or earlier: *_UNAVAILABLE, retryable only if repeating is safe at that authority;
 * - another attempt at the same submission still in progress: *_UNAVAILABLE, retry after 5 s,
 *   or, where repeating is never safe, answered as in doubt (not retryable);
 * - classified refusals (AppErrors such as TAX_AUTH_FAILED) as they were thrown;
 * - an HTTP 4xx: INTERNAL_ERROR; anything else (Redis down before the claim): SERVICE_UNAVAILABLE.
 * Messages are safe to show to API clients: no host names, no authority internals.
 */
export function submitFailure(error: unknown, options: SubmitFailureOptions): { error: AppError; kind: SubmitFailureKind } {
  const { unavailableCode: code, authority } = options;
  const inDoubt = (): { error: AppError; kind: SubmitFailureKind } =>
    options.repeatInDoubt === "never"
      ? {
          error: new AppError(
            code,
            `The ${authority} did not answer the submission in time; it may have been received, so it is not submitted again.`,
            {
              retryable: false,
            },
          ),
          kind: "in_doubt",
        }
      : {
          error: new AppError(code, `The ${authority} did not answer the submission in time; repeating the request is safe.`, {
            retryable: true,
            retryAfterSeconds: options.defaultRetryAfterSeconds,
          }),
          kind: "in_doubt",
        };
  if (error instanceof AppError) return { error, kind: "refused" };
  if (error instanceof SubmissionBlockedError) {
    if (error.state === "uncertain") return inDoubt();
    // Another attempt is under way (a redelivered request meeting the one a killed worker left,
    // a concurrent duplicate): it may reach the authority, so for an authority that takes
    // duplicates this is in doubt too, never "nothing was sent" (which would let the caller drop
    // the filing while the authority receives it).
    if (options.repeatInDoubt === "never") return { ...inDoubt(), kind: "in_progress" };
    return {
      error: new AppError(code, "This submission is being made by another request; try again shortly.", { retryAfterSeconds: 5 }),
      kind: "in_progress",
    };
  }
  if (error instanceof AuthorityCallAbortedError) return inDoubt();
  if (error instanceof AuthorityUnavailableError) {
    if (error.maybeReceived) return inDoubt();
    return {
      error: new AppError(code, `The ${authority} is unavailable; nothing was submitted. Try again later.`, {
        retryable: true,
        retryAfterSeconds: error.retryAfterSeconds ?? options.defaultRetryAfterSeconds,
      }),
      kind: "unavailable",
    };
  }
  if (error instanceof AuthorityRequestError) {
    return {
      error: new AppError("INTERNAL_ERROR", `The ${authority} refused the request as malformed.`, { retryable: false }),
      kind: "internal",
    };
  }
  return {
    error: new AppError("SERVICE_UNAVAILABLE", "The submission could not be recorded; nothing was submitted.", { retryable: true }),
    kind: "internal",
  };
}
