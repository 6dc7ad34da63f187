import type { RequestHandler } from "express";
import { requireAuth } from "../auth/context.ts";
import { asServiceUnavailable } from "../db/unavailable.ts";
import { setRateLimitHeaders } from "./headers.ts";
import type { RateLimiter } from "./limiter.ts";
import { rateLimitExceeded } from "./refusal.ts";

/**
 * Counts the request against its API key's per-minute and per-day limits and, with the same
 * limits, against its account's in this mode across all its keys (the account's overrides, carried
 * in `res.locals.auth.limits`): holding more keys, or revoking and creating keys, does not raise
 * what an account may send. Mount right after the auth middleware: the four X-RateLimit-*
 * headers (the key's, as the spec has them) are set before anything else can fail, so every
 * authenticated response carries them, errors included. Refused requests get 429
 * RATE_LIMIT_EXCEEDED with Retry-After, and count against neither.
 */
export function createRateLimitMiddleware(deps: { limiter: RateLimiter }): RequestHandler {
  return async (_req, res, next) => {
    const auth = requireAuth(res);
    const [key, account] = await deps.limiter
      .consumeAll([
        { subject: `key:${auth.keyId}`, limits: auth.limits },
        { subject: `account:${auth.accountId}:${auth.mode}`, limits: auth.limits },
      ])
      .catch((error: unknown) => {
        throw asServiceUnavailable(error);
      });
    if (!key || !account) throw new Error("the limiter answers one decision per subject");
    if (key.allowed) {
      setRateLimitHeaders(res, key);
      return next();
    }
    const keyFull = key.retryAfterSeconds > 0;
    const refusedBy = keyFull ? key : account;
    setRateLimitHeaders(res, { ...key, retryAfterSeconds: Math.max(key.retryAfterSeconds, account.retryAfterSeconds) });
    throw rateLimitExceeded(
      { ...refusedBy, retryAfterSeconds: Math.max(key.retryAfterSeconds, account.retryAfterSeconds) },
      keyFull ? "key" : "account",
    );
  };
}
