import { AppError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { CLAIM_ENDED_NOW } from "../state/claim-ended.ts";
import { FILING_READ_COLUMNS } from "../state/filing-columns.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { filingsFromRows, type FilingRow } from "../state/filing-rows.ts";

export type ExistingFiling =
  /** No filing under this key (never created, or removed after a failed submit): start afresh. */
  | { kind: "none" }
  /** The filing is past `pending`: answer from it. */
  | { kind: "done"; filing: FilingRecord }
  /** A pending filing this request now works on (resume it), as it is with this request's claim. */
  | { kind: "claimed"; filing: FilingRecord }
  /**
   * A pending filing whose last attempt ended in doubt (its submission may be at the authority,
   * the answer was lost) and is held until `retryAfterSeconds` from now, so that nothing calls
   * the submitter again while that attempt may still be in flight: answered at once, naming it.
   */
  | { kind: "in_doubt"; filing: FilingRecord; retryAfterSeconds: number };

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
/** A claim kept after an attempt ended in doubt carries this before its token (`holdInDoubt`). */
const IN_DOUBT_TOKEN_PREFIX = "in-doubt:";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The idempotency backstop in Postgres: the filing created under the same API key and
 * Idempotency-Key, if any. Another body under the same key is 409 IDEMPOTENCY_KEY_CONFLICT. A
 * pending filing is claimed (conditional update: only one request works on a filing at a time,
 * and a claim left by a crashed process expires); while another request holds it, this one
 * waits for its outcome, and after `waitMs` answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After.
 * A filing held after an attempt in doubt (`holdInDoubt`) is not waited for: it is returned as
 * `in_doubt`, for the caller to answer the in-doubt 502 naming it at once.
 *
 * One statement per look: the filing with its parts is read, and claimed in the same statement
 * when it is pending, unclaimed (or its claim expired), of the same body and still at the
 * version read, so that the record returned is exactly the filing this request now holds.
 */
export async function findOrClaim(db: FilingDb, request: ClaimRequest): Promise<ExistingFiling> {
  const deadline = Date.now() + request.waitMs;
  for (;;) {
    const rows = await db.$queryRaw<Array<FilingRow & { claimed_version: number | null; claim_left_seconds: number | null }>>`
      WITH found AS (
        SELECT id, version FROM filings WHERE key_id = ${request.keyId} AND idempotency_key = ${request.idempotencyKey}
      ), claimed AS (
        UPDATE filings SET claim_token = ${request.token}, claim_expires_at = now() + ${request.claimSeconds}::int * interval '1 second', version = filings.version + 1
        FROM found
        WHERE filings.id = found.id AND filings.version = found.version AND filings.status = 'pending'
          AND filings.request_fingerprint = ${request.fingerprint}
          AND (filings.claim_expires_at IS NULL OR filings.claim_expires_at < now())
        RETURNING filings.version
      )
      SELECT ${FILING_READ_COLUMNS}, (SELECT version FROM claimed) AS claimed_version,
        CEIL(EXTRACT(EPOCH FROM f.claim_expires_at - now()))::int AS claim_left_seconds
      FROM found JOIN filings f ON f.id = found.id LEFT JOIN filing_parts p ON p.filing_id = f.id
      ORDER BY p.part_number`;
    const filing = filingsFromRows(rows)[0];
    if (!filing) return { kind: "none" };
    if (filing.requestFingerprint !== request.fingerprint) {
      throw new AppError("IDEMPOTENCY_KEY_CONFLICT", "This Idempotency-Key was already used with a different request body");
    }
    if (filing.status !== "pending") return { kind: "done", filing };
    const claimedVersion = rows[0]!.claimed_version;
    if (claimedVersion !== null) return { kind: "claimed", filing: { ...filing, claimToken: request.token, version: claimedVersion } };
    const claimLeftSeconds = rows[0]!.claim_left_seconds;
    if (filing.claimToken?.startsWith(IN_DOUBT_TOKEN_PREFIX) && claimLeftSeconds !== null && claimLeftSeconds > 0) {
      return { kind: "in_doubt", filing, retryAfterSeconds: claimLeftSeconds };
    }
    if (Date.now() >= deadline) {
      throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed; retry shortly", {
        retryAfterSeconds: IN_USE_RETRY_AFTER_SECONDS,
      });
    }
    await sleep(request.pollMs ?? 100);
  }
}

/**
 * Gives up this request's claim (the filing stays pending for a retry or the sweeper). The claim's
 * expiry becomes the moment it ended (`CLAIM_ENDED_NOW`): the sweeper counts a pending filing's
 * age from the last request that worked on it, so that it never ends a filing whose client is
 * still retrying.
 */
export async function releaseClaim(db: FilingDb, filingId: string, token: string): Promise<void> {
  await db.$executeRaw`
    UPDATE filings SET claim_token = NULL, claim_expires_at = ${CLAIM_ENDED_NOW}, version = version + 1 WHERE id = ${filingId} AND claim_token = ${token}`;
}

/**
 * After a submission's attempt ended in doubt: keeps the filing claimed for `seconds` more (as
 * `keepClaimFor`), marked so that a retry meanwhile is answered at once that the filing is in
 * doubt (naming it) instead of waiting for a request that has ended. The claim then lapses: a
 * retry resumes the filing (the submitters settle the attempt with the authority first, never
 * sending it twice), or the sweeper asks the submitters about it.
 */
export async function holdInDoubt(db: FilingDb, filingId: string, token: string, seconds: number): Promise<void> {
  await db.$executeRaw`
    UPDATE filings SET claim_token = ${IN_DOUBT_TOKEN_PREFIX + token}, claim_expires_at = now() + ${seconds}::int * interval '1 second', version = version + 1
    WHERE id = ${filingId} AND claim_token = ${token}`;
}

/**
 * Keeps this request's claim for `seconds` more, then lets it lapse: after a call whose effect
 * is unknown the other side may still be working on it, and a retry must not call again before
 * it is done (the submitters answer a concurrent attempt as "in progress").
 */
export async function keepClaimFor(db: FilingDb, filingId: string, token: string, seconds: number): Promise<void> {
  await db.$executeRaw`
    UPDATE filings SET claim_expires_at = now() + ${seconds}::int * interval '1 second', version = version + 1
    WHERE id = ${filingId} AND claim_token = ${token}`;
}
