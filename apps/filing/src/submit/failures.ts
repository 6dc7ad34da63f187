import { AppError, type FilingError } from "@dormant/contracts";
import { BusUnavailableError, RpcConnectionLostError, RpcNoServerError, RpcTimeoutError } from "@dormant/bus";

/**
 * What a failed call to another service means for the filing:
 * - `not-done`: the other side certainly did nothing (nobody served the queue, the request never
 *   left, or the service answered a classified refusal);
 * - `unknown`: it may have done it (no reply in time, connection lost, an unclassified error):
 *   the filing must stay so that a retry resumes it under the same filing_id, where the other
 *   side's deduplication answers with what it did.
 */
export interface CallFailure {
  certainty: "not-done" | "unknown";
  /** What the caller of the submit gets. */
  publicError: AppError;
  /** The filing error recorded if the filing is ended because of it. */
  filingError: FilingError;
  /**
   * Whether a `not-done` also speaks for earlier attempts at the same submissions: a submitter's
   * own answer does (its ledger remembers every attempt at a submission and settles one in doubt
   * before it answers); the bus's "nobody serves the queue" and a failed hold speak of this call
   * only, while a request that created the filing earlier may have sent something.
   */
  coversEarlierAttempts: boolean;
}

type Authority = "tax" | "registry";

const NO_SERVER_RETRY_AFTER_SECONDS = 30;
const TRANSIENT_RETRY_AFTER_SECONDS = 5;

function unavailable(authority: Authority, retryAfterSeconds: number, cause: unknown): AppError {
  const [code, who] =
    authority === "tax" ? (["TAX_UNAVAILABLE", "tax authority"] as const) : (["REGISTRY_UNAVAILABLE", "company registry"] as const);
  return new AppError(code, `The ${who} is temporarily unavailable; retry later`, { retryAfterSeconds, cause });
}

/** The same AppError with a Retry-After (the submitters should give one; 30 s when they do not). */
function withRetryAfter(error: AppError): AppError {
  if (error.retryAfterSeconds) return error;
  return new AppError(error.code, error.message, {
    ...(error.details ? { details: error.details } : {}),
    retryable: error.retryable,
    retryAfterSeconds: NO_SERVER_RETRY_AFTER_SECONDS,
    cause: error,
  });
}

/**
 * A failed tax.submit_part / registry.submit_accounts call, by what the submitters answer
 * (apps/tax-submitter and apps/registry-submitter READMEs):
 * - TAX_AUTH_FAILED (credentials refused): not done;
 * - TAX_UNAVAILABLE retryable (authority down or failing, breaker open): nothing was sent or
 *   taken, not done; not retryable: sent without an answer, in doubt (never sent again);
 * - REGISTRY_UNAVAILABLE: unknown. The registry submitter answers an attempt in doubt with the
 *   same retryable code as "registry down", because repeating it with the *same submission
 *   number* is safe (the registry refuses a number twice). So the filing, and its number, stay;
 * - SERVICE_UNAVAILABLE (the submitter's store down, or acknowledged but the first poll not
 *   scheduled): unknown, the retry completes it;
 * - VALIDATION_ERROR, and INTERNAL_ERROR not retryable (the authority refused the message or our
 *   presenter credentials, credentials that do not open): refused, nothing filed, not done;
 * - anything else (a handler time-out): unknown.
 * Bus failures: nobody serving the queue is certain (not done) for this call, no reply in time is
 * not. Both become the authority's *_UNAVAILABLE with Retry-After.
 */
export function classifySubmitterFailure(error: unknown, authority: Authority): CallFailure {
  const authorityUnavailable: FilingError = {
    code: "AUTHORITY_UNAVAILABLE",
    message: `The ${authority === "tax" ? "tax authority" : "registry"} was unavailable.`,
  };
  if (error instanceof RpcNoServerError || error instanceof BusUnavailableError) {
    return {
      certainty: "not-done",
      publicError: unavailable(authority, NO_SERVER_RETRY_AFTER_SECONDS, error),
      filingError: authorityUnavailable,
      coversEarlierAttempts: false,
    };
  }
  if (error instanceof RpcTimeoutError || error instanceof RpcConnectionLostError) {
    return {
      certainty: "unknown",
      publicError: unavailable(authority, TRANSIENT_RETRY_AFTER_SECONDS, error),
      filingError: authorityUnavailable,
      coversEarlierAttempts: false,
    };
  }
  if (!(error instanceof AppError)) {
    return {
      certainty: "unknown",
      publicError: new AppError("INTERNAL_ERROR", "The submission failed; retry with the same Idempotency-Key", { cause: error }),
      filingError: { code: "INTERNAL_ERROR", message: "The submission failed." },
      coversEarlierAttempts: false,
    };
  }
  return { ...answeredBySubmitter(error, authority, authorityUnavailable), coversEarlierAttempts: true };
}

/** The submitter's own answer (an AppError), by its code. */
function answeredBySubmitter(
  error: AppError,
  authority: Authority,
  authorityUnavailable: FilingError,
): Omit<CallFailure, "coversEarlierAttempts"> {
  const refused: FilingError = { code: "INTERNAL_ERROR", message: "The submission was refused." };
  switch (error.code) {
    case "TAX_AUTH_FAILED":
      return {
        certainty: "not-done",
        publicError: withRetryAfter(error),
        filingError: { code: "CREDENTIALS_INVALID", message: "The tax authority refused the gateway credentials." },
      };
    case "TAX_UNAVAILABLE":
      return { certainty: error.retryable ? "not-done" : "unknown", publicError: withRetryAfter(error), filingError: authorityUnavailable };
    case "REGISTRY_UNAVAILABLE":
      return { certainty: "unknown", publicError: withRetryAfter(error), filingError: authorityUnavailable };
    case "SERVICE_UNAVAILABLE":
      return {
        certainty: "unknown",
        publicError: unavailable(authority, error.retryAfterSeconds ?? TRANSIENT_RETRY_AFTER_SECONDS, error),
        filingError: authorityUnavailable,
      };
    case "VALIDATION_ERROR":
      return { certainty: "not-done", publicError: error, filingError: refused };
    default:
      return { certainty: error.retryable ? "unknown" : "not-done", publicError: error, filingError: refused };
  }
}

/**
 * A failed billing.hold call. INSUFFICIENT_BALANCE (402) and billing's other answers pass
 * through unchanged; billing out of reach is SERVICE_UNAVAILABLE (503) with Retry-After. Only a
 * refusal or a request that never reached billing is certain to have left no hold.
 */
export function classifyHoldFailure(error: unknown): CallFailure {
  const filingError: FilingError = { code: "INTERNAL_ERROR", message: "The fee could not be reserved." };
  const billingUnavailable = (retryAfterSeconds: number) =>
    new AppError("SERVICE_UNAVAILABLE", "The billing service is temporarily unavailable; retry shortly", {
      retryAfterSeconds,
      cause: error,
    });
  const failure = (certainty: CallFailure["certainty"], publicError: AppError): CallFailure => ({
    certainty,
    publicError,
    filingError,
    coversEarlierAttempts: false,
  });
  if (error instanceof RpcNoServerError || error instanceof BusUnavailableError) {
    return failure("not-done", billingUnavailable(NO_SERVER_RETRY_AFTER_SECONDS));
  }
  if (error instanceof RpcTimeoutError || error instanceof RpcConnectionLostError) {
    return failure("unknown", billingUnavailable(TRANSIENT_RETRY_AFTER_SECONDS));
  }
  if (error instanceof AppError) return failure(error.code === "INSUFFICIENT_BALANCE" ? "not-done" : "unknown", error);
  return failure("unknown", new AppError("INTERNAL_ERROR", "The fee could not be reserved", { cause: error }));
}
