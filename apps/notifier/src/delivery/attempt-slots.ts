import { inTransaction, type NotifierDb } from "../db/client.ts";

/** The concurrency limits every notifier replica shares (attempts in flight at once). */
export interface SlotLimits {
  /** Per endpoint. */
  endpoint: number;
  /** Per account and mode (live and test counted apart: test traffic never takes live slots). */
  account: number;
  /** Per destination host name and mode, whichever account the endpoints belong to. */
  host: number;
}

export interface SlotClaim {
  deliveryId: string;
  endpointId: string;
  accountId: string;
  mode: "live" | "test";
  url: string;
  /** How long the slot counts if it is never released (a worker that died mid-attempt). */
  holdMs: number;
}

export type SlotRefusal = "endpoint" | "account" | "host";

const hostOf = (url: string) => new URL(url).hostname.toLowerCase();

/**
 * Takes a slot for one HTTP attempt, in the `attempt_slots` table of the notifier's database, so
 * that the limits hold across replicas: under transaction-scoped advisory locks on the account and
 * on the host (always taken in that order: no deadlock), the slots still counting are counted and
 * one is inserted when every limit has room. Answers which limit is reached, or null: taken.
 */
export async function claimAttemptSlot(db: NotifierDb, claim: SlotClaim, limits: SlotLimits): Promise<SlotRefusal | null> {
  const accountKey = `${claim.accountId}:${claim.mode}`;
  const hostKey = `${claim.mode}:${hostOf(claim.url)}`;
  return inTransaction(db, async (tx) => {
    // One round trip: the select list is evaluated left to right (account, then host).
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0)), pg_advisory_xact_lock(hashtextextended($2, 0))", [
      `slot:account:${accountKey}`,
      `slot:host:${hostKey}`,
    ]);
    const counted = await tx.query<{ endpoint: number; account: number; host: number }>(
      `SELECT count(*) FILTER (WHERE endpoint_id = $1)::int AS endpoint,
              count(*) FILTER (WHERE account_key = $2)::int AS account,
              count(*) FILTER (WHERE host_key = $3)::int AS host
         FROM attempt_slots
        WHERE (account_key = $2 OR host_key = $3) AND expires_at > now() AND delivery_id <> $4`,
      [claim.endpointId, accountKey, hostKey, claim.deliveryId],
    );
    const inFlight = counted.rows[0] ?? { endpoint: 0, account: 0, host: 0 };
    if (inFlight.endpoint >= limits.endpoint) return "endpoint";
    if (inFlight.account >= limits.account) return "account";
    if (inFlight.host >= limits.host) return "host";
    await tx.query(
      `INSERT INTO attempt_slots (delivery_id, endpoint_id, account_key, host_key, expires_at)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
       ON CONFLICT (delivery_id) DO UPDATE SET endpoint_id = $2, account_key = $3, host_key = $4, expires_at = excluded.expires_at`,
      [claim.deliveryId, claim.endpointId, accountKey, hostKey, claim.holdMs],
    );
    return null;
  });
}

/** Gives the slot of a finished attempt back, and clears rows left by dead workers (expired: they no longer count). */
export async function releaseAttemptSlot(db: NotifierDb, deliveryId: string): Promise<void> {
  await db.pool.query("DELETE FROM attempt_slots WHERE delivery_id = $1 OR expires_at <= now()", [deliveryId]);
}
