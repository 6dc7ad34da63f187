import { AppError, isAppError } from "@dormant/contracts";

/**
 * A failing data store (Redis down, database unreachable) as the retryable 503 the caller sees;
 * AppErrors pass through untouched. The cause stays attached for the logs.
 */
export function asServiceUnavailable(error: unknown): AppError {
  if (isAppError(error)) return error;
  return new AppError("SERVICE_UNAVAILABLE", "The service is temporarily unavailable; retry shortly", {
    cause: error,
    retryAfterSeconds: 1,
  });
}
