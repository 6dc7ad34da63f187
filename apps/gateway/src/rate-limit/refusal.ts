import { AppError } from "@dormant/contracts";
import type { RateLimitDecision } from "./limiter.ts";

/**
 * The 429 for a refused request; its Retry-After header is already set by setRateLimitHeaders.
 * `scope` says whose limit it was: the key's (the spec's headers show it), the account's across
 * all its keys in this mode, the account's validations, or a client address's failed authentications.
 */
export function rateLimitExceeded(decision: RateLimitDecision, scope: "key" | "account" | "validation" | "address" = "key"): AppError {
  const window = decision.remainingDay === 0 ? "daily" : "per-minute";
  const whose =
    scope === "account"
      ? `the account's ${window} limit across all its keys`
      : scope === "validation"
        ? `the account's ${window} validation limit`
        : `${window} limit`;
  return new AppError("RATE_LIMIT_EXCEEDED", `Rate limit exceeded (${whose}); retry after ${decision.retryAfterSeconds} seconds`, {
    retryAfterSeconds: decision.retryAfterSeconds,
  });
}
