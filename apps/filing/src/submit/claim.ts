import { AppError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";

export type ExistingFiling =
  /** No filing under this key (never created, or removed after a failed submit): start afresh. */
  | { kind: "none" }
  /** The filing is past `pending`: answer from it. */
  | { kind: "done"; filingId: string }
  /** A pending filing this request now works on (resume it). */
  | { kind: "claimed"; filingId: string };

export interface ClaimRequest {
  keyId: string;
  idempotencyKey: string;
  fingerprint: string;
  token: string;
  claimSeconds: number;
  /** How long to wait for another request working on the same filing. */
  waitMs: number;
  pollMs?: number;
}

const IN_USE_RETRY_AFTER_SECONDS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The idempotency backstop in Postgres: the filing created under the same API key and
 * Idempotency-Key, if any. Another body under the same key is 409 IDEMPOTENCY_KEY_CONFLICT. A
 * pending filing is claimed (conditional update: only one request works on a filing at a time,
 * and a claim left by a crashed process expires); while another request holds it, this one
 * waits for its outcome, and after `waitMs` answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After.
 */
export async function findOrClaim(db: FilingDb, request: ClaimRequest): Promise<ExistingFiling> {
  const deadline = Date.now() + request.waitMs;
  for (;;) {
    const row = await db.filing.findFirst({
      where: { keyId: request.keyId, idempotencyKey: request.idempotencyKey },
      select: { id: true, status: true, requestFingerprint: true },
    });
    if (!row) return { kind: "none" };
    if (row.requestFingerprint !== request.fingerprint) {
      throw new AppError("IDEMPOTENCY_KEY_CONFLICT", "This Idempotency-Key was already used with a different request body");
    }
    if (row.status !== "pending") return { kind: "done", filingId: row.id };
    const claimed = await db.$executeRaw`
      UPDATE filings SET claim_token = ${request.token}, claim_expires_at = now() + ${request.claimSeconds}::int * interval '1 second'
      WHERE id = ${row.id} AND status = 'pending' AND (claim_expires_at IS NULL OR claim_expires_at < now())`;
    if (claimed === 1) return { kind: "claimed", filingId: row.id };
    if (Date.now() >= deadline) {
      throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry shortly", {
        retryAfterSeconds: IN_USE_RETRY_AFTER_SECONDS,
      });
    }
    await sleep(request.pollMs ?? 100);
  }
}

/** Gives up this request's claim (the filing stays pending for a retry or the sweeper). */
export async function releaseClaim(db: FilingDb, filingId: string, token: string): Promise<void> {
  await db.$executeRaw`UPDATE filings SET claim_token = NULL, claim_expires_at = NULL WHERE id = ${filingId} AND claim_token = ${token}`;
}

/**
 * Keeps this request's claim for `seconds` more, then lets it lapse: after a call whose effect
 * is unknown the other side may still be working on it, and a retry must not call again before
 * it is done (the submitters answer a concurrent attempt as "in progress").
 */
export async function keepClaimFor(db: FilingDb, filingId: string, token: string, seconds: number): Promise<void> {
  await db.$executeRaw`UPDATE filings SET claim_expires_at = now() + ${seconds}::int * interval '1 second' WHERE id = ${filingId} AND claim_token = ${token}`;
}
