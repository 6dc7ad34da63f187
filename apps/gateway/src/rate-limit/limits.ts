/** Requests allowed per fixed window. */
export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/** Per API key unless the account overrides them (spec section 8). */
export const DEFAULT_KEY_LIMITS: RateLimits = { perMinute: 60, perDay: 1000 };

/**
 * Validation per account and mode (the validate-only routes): each runs HMRC's business rules,
 * tens of ms of CPU per return, so a loop of them is bounded apart from the request limits.
 */
export const DEFAULT_VALIDATION_LIMITS: RateLimits = { perMinute: 30, perDay: 1000 };

/**
 * Key changes per account, over gateway.rpc (the dashboard). Creation is bounded well above what
 * rotation needs (the 20-key cap is reached within a minute); revocation more generously still, so
 * that an account whose keys leaked can always revoke every one of them at once.
 */
export interface KeyChangeLimits {
  create: RateLimits;
  revoke: RateLimits;
}
export const DEFAULT_KEY_CHANGE_LIMITS: KeyChangeLimits = {
  create: { perMinute: 30, perDay: 100 },
  revoke: { perMinute: 60, perDay: 500 },
};

/**
 * Per client address, counting only requests that fail authentication (missing, malformed,
 * unknown or revoked key): generous for a misconfigured client, tight for key guessing.
 */
export const DEFAULT_ADDRESS_LIMITS: RateLimits = { perMinute: 30, perDay: 500 };
