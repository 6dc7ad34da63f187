import { AppError } from "@dormant/contracts";
import type { RateLimitDecision } from "./limiter.ts";

/** The 429 for a refused request; its Retry-After header is already set by setRateLimitHeaders. */
export function rateLimitExceeded(decision: RateLimitDecision): AppError {
  const window = decision.remainingDay === 0 ? "daily" : "per-minute";
  return new AppError("RATE_LIMIT_EXCEEDED", `Rate limit exceeded (${window} limit); retry after ${decision.retryAfterSeconds} seconds`, {
    retryAfterSeconds: decision.retryAfterSeconds,
  });
}
