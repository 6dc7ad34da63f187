import type { Response } from "express";
import type { RateLimitDecision } from "./limiter.ts";

/** The four X-RateLimit-* headers (spec section 8), plus Retry-After when the request was refused. */
export function setRateLimitHeaders(res: Response, decision: RateLimitDecision): void {
  res.setHeader("X-RateLimit-Limit-Minute", String(decision.limits.perMinute));
  res.setHeader("X-RateLimit-Remaining-Minute", String(decision.remainingMinute));
  res.setHeader("X-RateLimit-Limit-Day", String(decision.limits.perDay));
  res.setHeader("X-RateLimit-Remaining-Day", String(decision.remainingDay));
  if (!decision.allowed) res.setHeader("Retry-After", String(decision.retryAfterSeconds));
}
