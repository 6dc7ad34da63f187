import type { Request, RequestHandler, Response } from "express";
import { AppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { requireAuth } from "../auth/context.ts";
import { asServiceUnavailable } from "../db/unavailable.ts";
import { requestFingerprint } from "./fingerprint.ts";
import { readIdempotencyKey } from "./header.ts";
import { errorCodeOf, isDecidingAnswer } from "./keep-rule.ts";
import type { CompletedRecord, IdempotencyScope, IdempotencyStore } from "./store.ts";

export interface IdempotencyMiddlewareDeps {
  store: IdempotencyStore;
  /** Keys the body fingerprints (HMAC-SHA256); the API key pepper serves. */
  fingerprintSecret: string;
  /** How long a duplicate of a running request waits for its answer before 409 IDEMPOTENCY_KEY_IN_USE. */
  waitMs?: number;
  pollIntervalMs?: number;
  /** A request that never answers stops refreshing its claim after this long. */
  maxHoldMs?: number;
  logger?: Pick<Logger, "warn" | "error">;
}

/** Retry-After of a 409 IDEMPOTENCY_KEY_IN_USE: the original is still running. */
const IN_USE_RETRY_AFTER_SECONDS = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `Idempotency-Key` for the submit endpoints (spec section 8). Mount after auth, rate limit and
 * the JSON body parser, before validation and the handler.
 *
 * Both modes: the header is required and at most 64 characters (else 400 VALIDATION_ERROR).
 * Live keys: the first request claims the key in Redis (scoped per API key); its answer is kept
 * for 24 hours and replayed to the same key with the same method, path and body; another body is
 * 409 IDEMPOTENCY_KEY_CONFLICT. A duplicate arriving while the first still runs waits for its
 * answer (up to `waitMs`), else gets 409 IDEMPOTENCY_KEY_IN_USE with Retry-After. Only deciding
 * answers are kept (keep-rule.ts): a transient refusal (5xx, 409 IDEMPOTENCY_KEY_IN_USE, 429,
 * 402, 400, anything with Retry-After) releases the claim and the key stays usable, so that a
 * retry asks again (a submit in doubt is then answered from the filing it created). Test keys:
 * nothing is stored (sandbox idempotency is stateless, spec sandbox rule 5).
 */
export function createIdempotencyMiddleware(deps: IdempotencyMiddlewareDeps): RequestHandler {
  const waitMs = deps.waitMs ?? 10_000;
  const pollIntervalMs = deps.pollIntervalMs ?? 100;
  const maxHoldMs = deps.maxHoldMs ?? 10 * 60_000;

  function replay(res: Response, record: CompletedRecord): void {
    res.status(record.status);
    if (record.contentType) res.setHeader("Content-Type", record.contentType);
    res.setHeader("Idempotent-Replayed", "true");
    res.send(Buffer.from(record.body, "base64"));
  }

  /** Runs the rest of the chain holding the claim, and keeps or releases the answer it produces. */
  function execute(res: Response, scope: IdempotencyScope, token: string, fingerprint: string): void {
    const startedAt = Date.now();
    const heartbeat = setInterval(
      () => {
        if (Date.now() - startedAt > maxHoldMs) return clearInterval(heartbeat);
        deps.store.refresh(scope, token).then(
          (ours) => ours || clearInterval(heartbeat),
          (error: unknown) => deps.logger?.warn({ err: error }, "could not refresh an idempotency claim"),
        );
      },
      Math.max(1, Math.floor(deps.store.claimTtlMs / 3)),
    );
    heartbeat.unref();

    let settled = false;
    async function settle(status: number, body: Buffer | null): Promise<void> {
      settled = true;
      clearInterval(heartbeat);
      try {
        const contentType = (res.getHeader("Content-Type") as string | undefined) ?? undefined;
        const retryAfter = res.getHeader("Retry-After");
        const deciding =
          body !== null &&
          isDecidingAnswer({
            status,
            retryAfter: retryAfter === undefined ? undefined : String(retryAfter),
            errorCode: status >= 400 ? errorCodeOf(body, contentType) : undefined,
          });
        if (body !== null && deciding) {
          const kept = await deps.store.complete(scope, token, {
            fingerprint,
            status,
            contentType: contentType ?? null,
            body: body.toString("base64"),
          });
          if (!kept) deps.logger?.warn({ status }, "idempotency claim was taken over before the answer could be kept");
        } else {
          await deps.store.release(scope, token);
        }
      } catch (error) {
        // The answer still goes out; the claim expires on its own and the filing service's
        // idempotency backstop catches a retry of a request that did execute.
        deps.logger?.error({ err: error }, "could not record the idempotent answer");
      }
    }

    // Every JSON answer, the handler's or the error renderer's, passes through res.send with a
    // string: keep it (or release the claim) before it goes out, so a waiting duplicate replays it.
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (settled || (typeof body !== "string" && !Buffer.isBuffer(body))) return send(body);
      const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
      void settle(res.statusCode, bytes).finally(() => send(body));
      return res;
    };
    // An answer written without res.send (a stream) cannot be replayed: give the key back.
    res.on("finish", () => {
      if (!settled) void settle(res.statusCode, null);
    });
  }

  return async (req: Request, res, next) => {
    const idempotencyKey = readIdempotencyKey(req);
    const auth = requireAuth(res);
    if (auth.mode === "test") return next();

    const scope: IdempotencyScope = { apiKeyId: auth.keyId, idempotencyKey };
    const fingerprint = requestFingerprint(
      { method: req.method, path: req.originalUrl.split("?")[0] ?? req.path, body: req.body },
      deps.fingerprintSecret,
    );
    const deadline = Date.now() + waitMs;
    for (;;) {
      const claim = await deps.store.claim(scope, fingerprint).catch((error: unknown) => {
        throw asServiceUnavailable(error);
      });
      if (claim.claimed) {
        execute(res, scope, claim.token, fingerprint);
        return next();
      }
      const existing = claim.existing;
      if (existing.fingerprint !== fingerprint) {
        throw new AppError("IDEMPOTENCY_KEY_CONFLICT", "This Idempotency-Key was already used with a different request body");
      }
      if (existing.state === "completed") return replay(res, existing);
      if (Date.now() + pollIntervalMs > deadline) {
        res.setHeader("Retry-After", String(IN_USE_RETRY_AFTER_SECONDS));
        throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry shortly", {
          retryAfterSeconds: IN_USE_RETRY_AFTER_SECONDS,
        });
      }
      await sleep(pollIntervalMs);
    }
  };
}
