/** Failures of the registry public data client, typed so callers can map them without parsing text. */

/** The registry does not know the company (HTTP 404). Not retryable. */
export class CompanyNotFoundError extends Error {
  override readonly name = "CompanyNotFoundError";
  readonly code = "COMPANY_NOT_FOUND";
  readonly retryable = false;
  readonly companyNumber: string;

  constructor(companyNumber: string) {
    super(`company ${companyNumber} is not known to the registry`);
    this.companyNumber = companyNumber;
  }
}

/**
 * Why the registry could not give an answer:
 * - `rate-limited`: HTTP 429 (the registry allows 600 requests per 5 minutes per key);
 * - `server-error`: HTTP 5xx;
 * - `timeout`: no complete answer within the client's `timeoutMs`;
 * - `network`: connection refused, reset, DNS failure and the like;
 * - `aborted`: the caller's own AbortSignal fired (e.g. a circuit breaker's timeout);
 * - `bad-response`: HTTP 200 whose body is not JSON or does not match our schema;
 * - `unauthorised`: HTTP 401/403, our API key is wrong or revoked (configuration, not transient);
 * - `unexpected-status`: any other status (e.g. 400 for a malformed company number).
 */
export type RegistryUnavailableReason =
  | "rate-limited"
  | "server-error"
  | "timeout"
  | "network"
  | "aborted"
  | "bad-response"
  | "unauthorised"
  | "unexpected-status";

const RETRYABLE: Record<RegistryUnavailableReason, boolean> = {
  "rate-limited": true,
  "server-error": true,
  timeout: true,
  network: true,
  aborted: true,
  "bad-response": true,
  unauthorised: false,
  "unexpected-status": false,
};

export interface RegistryUnavailableErrorOptions {
  reason: RegistryUnavailableReason;
  message: string;
  /** The HTTP status, when the registry answered. */
  status?: number | undefined;
  /** From the Retry-After header, when present and readable. */
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/** The registry could not be used right now. `retryable` tells workers whether a retry can help. */
export class RegistryUnavailableError extends Error {
  override readonly name = "RegistryUnavailableError";
  readonly code = "REGISTRY_UNAVAILABLE";
  readonly reason: RegistryUnavailableReason;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(options: RegistryUnavailableErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    this.retryable = RETRYABLE[options.reason];
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
