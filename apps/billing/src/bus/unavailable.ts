import { AppError, isAppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";

/**
 * What an RPC caller sees when billing fails for a reason of its own (database unreachable,
 * transaction timed out): a retryable SERVICE_UNAVAILABLE, the cause only in billing's log.
 * AppErrors (402, 409...) pass through untouched.
 */
export function asServiceUnavailable(error: unknown, logger: Logger, what: string): AppError {
  if (isAppError(error)) return error;
  logger.error({ err: error }, `${what} failed`);
  return new AppError("SERVICE_UNAVAILABLE", "Billing is temporarily unavailable; retry shortly", {
    retryable: true,
    retryAfterSeconds: 1,
    cause: error,
  });
}
