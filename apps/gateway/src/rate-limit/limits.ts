/** Requests allowed per fixed window. */
export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/** Per API key unless the account overrides them (spec section 8). */
export const DEFAULT_KEY_LIMITS: RateLimits = { perMinute: 60, perDay: 1000 };

/**
 * Per client address, counting only requests that fail authentication (missing, malformed,
 * unknown or revoked key): generous for a misconfigured client, tight for key guessing.
 */
export const DEFAULT_ADDRESS_LIMITS: RateLimits = { perMinute: 30, perDay: 500 };
