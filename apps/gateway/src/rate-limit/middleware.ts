import type { RequestHandler } from "express";
import { requireAuth } from "../auth/context.ts";
import { asServiceUnavailable } from "../db/unavailable.ts";
import { setRateLimitHeaders } from "./headers.ts";
import type { RateLimiter } from "./limiter.ts";
import { rateLimitExceeded } from "./refusal.ts";

/**
 * Counts the request against its API key's per-minute and per-day limits (the account's overrides,
 * carried in `res.locals.auth.limits`). Mount right after the auth middleware: the four
 * X-RateLimit-* headers are set before anything else can fail, so every authenticated response
 * carries them, errors included. Refused requests get 429 RATE_LIMIT_EXCEEDED with Retry-After.
 */
export function createRateLimitMiddleware(deps: { limiter: RateLimiter }): RequestHandler {
  return async (_req, res, next) => {
    const auth = requireAuth(res);
    const decision = await deps.limiter.consume(`key:${auth.keyId}`, auth.limits).catch((error: unknown) => {
      throw asServiceUnavailable(error);
    });
    setRateLimitHeaders(res, decision);
    if (!decision.allowed) throw rateLimitExceeded(decision);
    next();
  };
}
