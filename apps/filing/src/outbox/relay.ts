import type { Logger } from "@dormant/service-kit";
import type { FilingBus, FilingEventType } from "../bus-catalog.ts";
import type { FilingDb } from "../db/client.ts";
import type { FilingMetrics } from "../metrics.ts";
import { Ticker } from "../ticker.ts";

interface OutboxRow {
  id: bigint;
  message_id: string;
  type: string;
  payload: unknown;
  request_id: string;
  occurred_at: Date;
}

export interface OutboxRelayOptions {
  db: FilingDb;
  bus: Pick<FilingBus, "publish">;
  logger: Logger;
  metrics: FilingMetrics;
  intervalMs: number;
  batchSize: number;
}

const EVENT_TYPES: ReadonlySet<string> = new Set<FilingEventType>(["filing.accepted", "filing.rejected", "filing.errored"]);

/**
 * Publishes the outbox: unpublished rows are taken in id order with FOR UPDATE SKIP LOCKED (so
 * several replicas relay side by side without taking the same row), published with a broker
 * confirm under their own message id, occurred_at and request id, and marked published in the
 * same transaction. A crash after the confirm and before the commit publishes the row again
 * later with the same message id: consumers deduplicate on it (at-least-once, exactly-once
 * effect). A publish that fails leaves its row for the next round and counts the attempt.
 */
export class OutboxRelay {
  private readonly ticker: Ticker;

  constructor(private readonly options: OutboxRelayOptions) {
    this.ticker = new Ticker("outbox relay", options.intervalMs, async () => (await this.relayOnce()) >= options.batchSize, options.logger);
  }

  start(): void {
    this.ticker.start();
  }

  /** Rows were just committed: relay them now rather than at the next interval. */
  wake(): void {
    this.ticker.wake();
  }

  async stop(): Promise<void> {
    await this.ticker.stop();
  }

  /** Relays until nothing is left or the time is up (graceful shutdown). */
  async flush(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const published = await this.relayOnce().catch((error: unknown) => {
        this.options.logger.warn({ err: error }, "flushing the outbox failed");
        return 0;
      });
      if (published === 0 && (await this.pending()) === 0) return;
      if (published === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Rows not yet published. */
  pending(): Promise<number> {
    return this.options.db.outboxMessage.count({ where: { publishedAt: null } });
  }

  /** One batch; returns how many rows were published. */
  async relayOnce(): Promise<number> {
    const { db, bus, logger, metrics, batchSize } = this.options;
    return db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<OutboxRow[]>`
          SELECT id, message_id::text AS message_id, type, payload, request_id, occurred_at FROM outbox
          WHERE published_at IS NULL ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return 0;
        const results = await Promise.allSettled(
          rows.map(async (row) => {
            if (!EVENT_TYPES.has(row.type)) throw new Error(`unknown outbox message type ${row.type}`);
            await bus.publish(row.type as FilingEventType, row.payload as never, {
              messageId: row.message_id,
              occurredAt: row.occurred_at,
              requestId: row.request_id,
            });
            metrics.eventsPublished.inc({ type: row.type });
          }),
        );
        const published = rows.filter((_, i) => results[i]?.status === "fulfilled").map((row) => row.id);
        if (published.length > 0) {
          await tx.outboxMessage.updateMany({ where: { id: { in: published } }, data: { publishedAt: new Date(), attempts: { increment: 1 } } });
        }
        for (const [i, result] of results.entries()) {
          if (result.status === "fulfilled") continue;
          const row = rows[i]!;
          const message = result.reason instanceof Error ? result.reason.message : String(result.reason);
          logger.warn({ err: result.reason, message_id: row.message_id, type: row.type }, "outbox publish failed; will retry");
          await tx.outboxMessage.update({ where: { id: row.id }, data: { attempts: { increment: 1 }, lastError: message.slice(0, 500) } });
        }
        return published.length;
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
  }
}
