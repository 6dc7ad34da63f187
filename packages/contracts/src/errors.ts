import { z } from "zod";

/**
 * Every error code the platform answers with. The first block is the public contract (spec
 * section 7); the second block is ours, documented in the README and the OpenAPI document.
 */
export const ErrorCode = z.enum([
  "VALIDATION_ERROR",
  "FILING_NOT_COMPLETE",
  "AUTH_REQUIRED",
  "INVALID_KEY",
  "INSUFFICIENT_BALANCE",
  "FILING_NOT_FOUND",
  "DOCUMENT_NOT_FOUND",
  "IDEMPOTENCY_KEY_CONFLICT",
  "RATE_LIMIT_EXCEEDED",
  "TAX_UNAVAILABLE",
  "REGISTRY_UNAVAILABLE",
  "TAX_AUTH_FAILED",
  // Extensions beyond the spec's table:
  "NOT_FOUND",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "IDEMPOTENCY_KEY_IN_USE",
  "FILING_EXISTS",
  "WEBHOOK_ENDPOINT_NOT_FOUND",
  "SERVICE_UNAVAILABLE",
  "INTERNAL_ERROR",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** The HTTP status each code is answered with. */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  FILING_NOT_COMPLETE: 400,
  AUTH_REQUIRED: 401,
  INVALID_KEY: 401,
  INSUFFICIENT_BALANCE: 402,
  FILING_NOT_FOUND: 404,
  DOCUMENT_NOT_FOUND: 404,
  IDEMPOTENCY_KEY_CONFLICT: 409,
  RATE_LIMIT_EXCEEDED: 429,
  TAX_UNAVAILABLE: 502,
  REGISTRY_UNAVAILABLE: 502,
  TAX_AUTH_FAILED: 502,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_IN_USE: 409,
  FILING_EXISTS: 409,
  WEBHOOK_ENDPOINT_NOT_FOUND: 404,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

/** Codes a caller (or a worker) may retry: the condition is expected to pass. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "RATE_LIMIT_EXCEEDED",
  "TAX_UNAVAILABLE",
  "REGISTRY_UNAVAILABLE",
  "IDEMPOTENCY_KEY_IN_USE",
  "SERVICE_UNAVAILABLE",
  "INTERNAL_ERROR",
]);

/**
 * One entry of an error's `details`: the field it is about and what is wrong. Some codes add
 * fields; `filing_id` names the filing an error is about (FILING_EXISTS: the existing filing; a
 * submit in doubt, api/in-doubt.ts: the filing that will be settled with the authority), and
 * travels from the filing service to the agent unchanged.
 */
export const ErrorDetail = z
  .object({
    field: z.string(),
    message: z.string(),
    filing_id: z.string().optional(),
  })
  .catchall(z.unknown());
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** An error as it travels between services (RPC replies) and into the public envelope. */
export const SerializedAppError = z.object({
  code: ErrorCode,
  message: z.string(),
  details: z.array(ErrorDetail).optional(),
  retryable: z.boolean(),
  /** Seconds after which a retry makes sense (becomes the Retry-After header). */
  retry_after_seconds: z.number().int().positive().optional(),
});
export type SerializedAppError = z.infer<typeof SerializedAppError>;

/** The one error type of the platform: a closed code, a safe message, optional field details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; retryable?: boolean; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? RETRYABLE.has(code);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get httpStatus(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  toJSON(): SerializedAppError {
    return {
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      retryable: this.retryable,
      ...(this.retryAfterSeconds ? { retry_after_seconds: this.retryAfterSeconds } : {}),
    };
  }

  static fromJSON(value: SerializedAppError): AppError {
    return new AppError(value.code, value.message, {
      ...(value.details ? { details: value.details } : {}),
      retryable: value.retryable,
      ...(value.retry_after_seconds ? { retryAfterSeconds: value.retry_after_seconds } : {}),
    });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
