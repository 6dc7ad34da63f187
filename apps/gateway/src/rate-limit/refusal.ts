import { AppError } from "@dormant/contracts";
import type { RateLimitDecision } from "./limiter.ts";

/** Whose limit refused: see rateLimitExceeded. */
export type RefusedScope = "key" | "account" | "validation" | "address" | "key-create" | "key-revoke";

/**
 * The 429 for a refused request; its Retry-After header is already set by setRateLimitHeaders.
 * `scope` says whose limit it was: the key's (the spec's headers show it), the account's across
 * all its keys in this mode, the account's validations, a client address's failed authentications,
 * or the account's key creations or revocations (gateway.rpc, for the dashboard).
 */
export function rateLimitExceeded(decision: RateLimitDecision, scope: RefusedScope = "key"): AppError {
  const window = decision.remainingDay === 0 ? "daily" : "per-minute";
  const whose: Record<RefusedScope, string> = {
    key: `${window} limit`,
    address: `${window} limit`,
    account: `the account's ${window} limit across all its keys`,
    validation: `the account's ${window} validation limit`,
    "key-create": `the account's ${window} limit on key creations`,
    "key-revoke": `the account's ${window} limit on key revocations`,
  };
  return new AppError("RATE_LIMIT_EXCEEDED", `Rate limit exceeded (${whose[scope]}); retry after ${decision.retryAfterSeconds} seconds`, {
    retryAfterSeconds: decision.retryAfterSeconds,
  });
}
