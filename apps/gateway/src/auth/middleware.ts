import type { Request, RequestHandler, Response } from "express";
import { AppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { asServiceUnavailable } from "../db/unavailable.ts";
import { parseApiKey } from "../keys/format.ts";
import type { LastUsedRecorder } from "../keys/last-used.ts";
import type { ApiKeyVerifier, KeyVerification } from "../keys/verifier.ts";
import { setRateLimitHeaders } from "../rate-limit/headers.ts";
import type { RateLimitDecision, RateLimiter } from "../rate-limit/limiter.ts";
import { DEFAULT_ADDRESS_LIMITS } from "../rate-limit/limits.ts";
import type { RateLimits } from "../rate-limit/limits.ts";
import { rateLimitExceeded } from "../rate-limit/refusal.ts";
import { type ClientAddressOf, clientAddressOf } from "./client-address.ts";
import { createSerialLookups } from "./serial-lookups.ts";

export interface AuthMiddlewareDeps {
  verifier: ApiKeyVerifier;
  /** Counts failed authentications per client address (the same limiter as the per-key limits). */
  limiter: RateLimiter;
  /** Failed authentications allowed per client address; defaults to 30 a minute, 500 a day. */
  addressLimits?: RateLimits;
  logger?: Pick<Logger, "info">;
  /** Told of every key that authenticated a request (`last_used_at`, written off the request's path). */
  lastUsed?: LastUsedRecorder;
  /** The address failures count against: `req.ip` unless the MCP server vouches for its caller's. */
  clientAddress?: ClientAddressOf;
  /** Lookups that may wait per over-limit address behind the one running (AUTH_LOOKUP_QUEUE_LIMIT). */
  lookupQueueLimit?: number;
}

/**
 * `X-API-Key` authentication (spec section 5). Sets `res.locals.auth` for a valid key; a missing
 * header is 401 AUTH_REQUIRED, anything else that is not a valid, unrevoked key of the mode it
 * claims is 401 INVALID_KEY (one code, whatever the reason, so that the answer reveals nothing).
 *
 * Only failed attempts count against the client address (`req.ip`, so Express's "trust proxy" must
 * be set behind a load balancer; for the MCP server's requests, the address of its caller that it
 * vouches for: client-address.ts), and only they are limited: once the address is over the limit a
 * failure answers 429 with Retry-After instead of 401, but a valid key is always served, so one
 * misconfigured job cannot lock out every key behind its address. Keys from an address over the
 * limit that are not in the verification cache are still looked up, one lookup at a time per
 * address (per replica), which bounds what a guessing flood costs the key store; at most
 * `lookupQueueLimit` wait behind it, and a lookup beyond them is answered 429 with the address's
 * Retry-After (the same refusal as its failures) instead of waiting.
 */
export function createAuthMiddleware(deps: AuthMiddlewareDeps): RequestHandler {
  const addressLimits = deps.addressLimits ?? DEFAULT_ADDRESS_LIMITS;
  const blockedLookups = createSerialLookups(deps.lookupQueueLimit);
  const addressOf = deps.clientAddress ?? clientAddressOf(undefined);
  const subjectOf = (req: Request) => `addr:${addressOf(req)}`;

  async function refuse(req: Request, res: Response, error: AppError, reason: string): Promise<never> {
    deps.logger?.info({ reason, path: req.path }, "authentication failed");
    const decision = await deps.limiter.consume(subjectOf(req), addressLimits).catch((storeError: unknown) => {
      throw asServiceUnavailable(storeError);
    });
    setRateLimitHeaders(res, decision);
    throw decision.allowed ? error : rateLimitExceeded(decision);
  }

  return async (req, res, next) => {
    const header = req.get("x-api-key");
    if (header === undefined || header === "") {
      return refuse(req, res, new AppError("AUTH_REQUIRED", "The X-API-Key header is required"), "missing_key");
    }
    const invalid = () => new AppError("INVALID_KEY", "The API key is invalid or has been revoked");
    const key = parseApiKey(header);
    if (!key) return refuse(req, res, invalid(), "malformed_key");

    let verification: KeyVerification | undefined = deps.verifier.verifyCached(key);
    if (!verification) {
      let address: RateLimitDecision;
      const subject = subjectOf(req);
      try {
        address = await deps.limiter.peek(subject, addressLimits);
      } catch (error) {
        throw asServiceUnavailable(error);
      }
      const lookup = address.allowed ? deps.verifier.verify(key) : blockedLookups.run(subject, () => deps.verifier.verify(key));
      if (!lookup) {
        deps.logger?.info({ reason: "lookup_queue_full", path: req.path }, "authentication refused");
        setRateLimitHeaders(res, address);
        throw rateLimitExceeded(address);
      }
      try {
        verification = await lookup;
      } catch (error) {
        throw asServiceUnavailable(error);
      }
    }
    if (!verification.ok) return refuse(req, res, invalid(), verification.reason);
    res.locals.auth = verification.auth;
    deps.lastUsed?.touch(verification.auth.keyId);
    next();
  };
}
