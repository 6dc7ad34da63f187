import type { RequestHandler } from "express";
import { requireAuth } from "../auth/context.ts";
import { asServiceUnavailable } from "../db/unavailable.ts";
import type { RateLimiter } from "./limiter.ts";
import type { RateLimits } from "./limits.ts";
import { rateLimitExceeded } from "./refusal.ts";

/**
 * The validate-only routes' own limit, per account and mode across all its keys (an extension):
 * validation is free but runs HMRC's business rules, so an account validating in a loop is
 * refused (429 RATE_LIMIT_EXCEEDED with Retry-After) before it can crowd the checks' queue. Mount
 * after the rate-limit middleware: the X-RateLimit-* headers stay the key's, as the spec has them.
 */
export function createValidationLimitMiddleware(deps: { limiter: RateLimiter; limits: RateLimits }): RequestHandler {
  return async (_req, res, next) => {
    const auth = requireAuth(res);
    const decision = await deps.limiter.consume(`validation:${auth.accountId}:${auth.mode}`, deps.limits).catch((error: unknown) => {
      throw asServiceUnavailable(error);
    });
    if (decision.allowed) return next();
    res.setHeader("Retry-After", String(decision.retryAfterSeconds));
    throw rateLimitExceeded(decision, "validation");
  };
}
