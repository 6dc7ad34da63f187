import { inTransaction, type NotifierDb } from "../db/client.ts";

/**
 * Purges settled deliveries (delivered, given up, cancelled) last changed more than
 * `retentionSeconds` ago, with their attempts, and the events left without any delivery: one batch
 * per call, in one transaction. Pending deliveries are never purged. Returns whether there may be more.
 */
export async function purgeSettledDeliveries(db: NotifierDb, retentionSeconds: number, batchSize = 500): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const old = await tx.query<{ id: string; event_id: string }>(
      `SELECT id, event_id FROM deliveries
        WHERE state <> 'pending' AND updated_at < now() - $1 * interval '1 second'
        ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [retentionSeconds, batchSize],
    );
    if (old.rows.length === 0) return false;
    const ids = old.rows.map((row) => row.id);
    await tx.query("DELETE FROM attempts WHERE delivery_id = ANY($1::text[])", [ids]);
    await tx.query("DELETE FROM deliveries WHERE id = ANY($1::text[])", [ids]);
    await tx.query(
      "DELETE FROM events e WHERE e.id = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id)",
      [[...new Set(old.rows.map((row) => row.event_id))]],
    );
    return old.rows.length === batchSize;
  });
}
