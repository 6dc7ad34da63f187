/**
 * Why a call to an authority got no usable answer:
 * - timeout: no answer within the time allowed (the request was aborted);
 * - breaker_open: not sent at all, the breaker fails fast;
 * - http_status: the authority answered HTTP 5xx or 429;
 * - network: the connection failed (refused, reset, DNS);
 * - authority_error: the authority answered that it failed on its side (GovTalk 1000 and the
 *   like) or answered something that is not its protocol;
 * - throttled: not sent, no slot under the limits toward the authority shared by all replicas
 *   came in time (or they could not be read: they fail closed).
 */
export type UnavailableReason = "timeout" | "breaker_open" | "http_status" | "network" | "authority_error" | "throttled";

/**
 * The authority is unavailable right now. Counts as a breaker failure (except `breaker_open` and
 * `throttled`, our own refusals to send). `maybeReceived` tells a submitter whether the request may
 * have been taken by the authority all the same (a timeout after sending, a reset connection),
 * in which case a submission must not simply be sent again.
 */
export class AuthorityUnavailableError extends Error {
  readonly reason: UnavailableReason;
  readonly maybeReceived: boolean;
  /** When the authority or the breaker says a retry makes sense. */
  readonly retryAfterSeconds: number | undefined;
  readonly status: number | undefined;

  constructor(
    reason: UnavailableReason,
    message: string,
    options: { maybeReceived: boolean; retryAfterSeconds?: number | undefined; status?: number | undefined; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AuthorityUnavailableError";
    this.reason = reason;
    this.maybeReceived = options.maybeReceived;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.status = options.status;
  }
}

/**
 * The authority refused the HTTP request itself (4xx other than 429): our request is wrong, the
 * authority is fine. Not a breaker failure, not worth retrying unchanged.
 */
export class AuthorityRequestError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "AuthorityRequestError";
    this.status = status;
  }
}

/**
 * The caller stopped waiting for a call in flight (its own deadline passed, it is shutting
 * down): not the authority's fault, but the request may have reached it.
 */
export class AuthorityCallAbortedError extends Error {
  readonly maybeReceived = true;

  constructor(breaker: string, cause: unknown) {
    super(`${breaker}: the caller stopped waiting for the authority's answer`, { cause });
    this.name = "AuthorityCallAbortedError";
  }
}

/** Whether an error means the authority is failing (what the breaker counts). */
export function isAuthorityFailure(error: unknown): boolean {
  return error instanceof AuthorityUnavailableError && error.reason !== "breaker_open" && error.reason !== "throttled";
}
