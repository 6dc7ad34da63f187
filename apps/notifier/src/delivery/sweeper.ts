import type { Logger } from "@dormant/service-kit";
import type { NotifierDb } from "../db/client.ts";
import type { DeliveryMode } from "./deliverer.ts";
import type { NotifierMetrics } from "../metrics.ts";

/**
 * The safety net of "nothing is lost": a pending delivery whose deliver command never made it to
 * the bus (the process died between the commit and the publish, or the publish failed) is due and
 * not leased for longer than `overdueSeconds`. Each run moves the next_attempt_at of a batch of them
 * to now (so they are not picked again before another `overdueSeconds`) and sends their commands
 * again. Duplicates are harmless: the deliver handler is idempotent. Returns whether there may be more.
 */
export async function sweepOverdueDeliveries(
  db: NotifierDb,
  deliverNow: (deliveryId: string, mode: DeliveryMode) => Promise<void>,
  logger: Logger,
  overdueSeconds: number,
  batchSize = 200,
): Promise<boolean> {
  const overdue = await db.pool.query<{ id: string; mode: DeliveryMode }>(
    `UPDATE deliveries SET next_attempt_at = now(), updated_at = now()
      WHERE id IN (SELECT id FROM deliveries
                    WHERE state = 'pending' AND next_attempt_at < now() - $1 * interval '1 second'
                      AND (lease_until IS NULL OR lease_until <= now())
                    ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING id, (SELECT mode FROM events WHERE events.id = deliveries.event_id) AS mode`,
    [overdueSeconds, batchSize],
  );
  for (const { id, mode } of overdue.rows) await deliverNow(id, mode);
  if (overdue.rows.length > 0) logger.warn({ deliveries: overdue.rows.length }, "overdue webhook deliveries sent to the bus again");
  return overdue.rows.length === batchSize;
}

/** Refreshes webhook_backlog_age_seconds: how long the most overdue pending delivery has been due. */
export async function refreshBacklogAge(db: NotifierDb, metrics: NotifierMetrics): Promise<boolean> {
  const oldest = await db.pool.query<{ age: number | null }>(
    "SELECT extract(epoch FROM now() - min(next_attempt_at))::float8 AS age FROM deliveries WHERE state = 'pending'",
  );
  metrics.backlogAge.set(Math.max(0, oldest.rows[0]?.age ?? 0));
  return false;
}
