import type { Logger } from "@dormant/service-kit";
import { FILING_EVENT_TYPES, type FilingBus, type FilingEventType } from "../bus-catalog.ts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { FilingMetrics } from "../metrics.ts";
import { PeriodicTask } from "@dormant/service-kit";

interface OutboxRow {
  id: bigint;
  message_id: string;
  type: string;
  payload: unknown;
  request_id: string;
  traceparent: string | null;
  tracestate: string | null;
  occurred_at: Date;
}

export interface OutboxRelayOptions {
  db: FilingDb;
  bus: Pick<FilingBus, "publish">;
  logger: Logger;
  metrics: FilingMetrics;
  intervalMs: number;
  batchSize: number;
  /**
   * How long a relay holds the rows it took (default 30 s): longer than a publish may take (the
   * bus's confirm deadline, 10 s), so that another relay never takes them while they are in
   * flight; a relay that died holding rows has them published by another after that.
   */
  claimSeconds?: number;
}

const DEFAULT_CLAIM_SECONDS = 30;

const EVENT_TYPES: ReadonlySet<string> = new Set<FilingEventType>(FILING_EVENT_TYPES);

/** What became of a claimed row: published, or failed with this error. */
interface Outcome {
  id: bigint;
  error: string | null;
}

/**
 * Publishes the outbox without holding a transaction open while it publishes:
 * 1. claim: the oldest unpublished rows nobody holds are taken (FOR UPDATE SKIP LOCKED, so
 *    several replicas relay side by side without taking the same row) and held for
 *    `claimSeconds` (claimed_until), one more attempt counted: one statement;
 * 2. each is published with a broker confirm under its own message id, occurred_at and request
 *    id;
 * 3. mark: the published rows get published_at, the failed ones are released with their error
 *    for the next round: one statement, or none when another batch follows at once (woken
 *    meanwhile, or a full batch), whose claim statement marks them.
 * A crash after a confirm and before the mark publishes the row again with the same message id
 * once its claim lapses: consumers deduplicate on it (at-least-once, exactly-once effect).
 *
 * Woken by the code that commits event rows (otherwise it polls every `intervalMs`); the wakes
 * during a batch cost one more batch after it, not one query each.
 */
export class OutboxRelay {
  private readonly loop: PeriodicTask;
  private readonly claimSeconds: number;
  /** Outcomes of the last batch, not marked yet: the next claim marks them. */
  private unmarked: Outcome[] = [];
  /** A batch of the loop is running; woken: a wake came during it (another batch follows at once). */
  private inBatch = false;
  private wokenInBatch = false;

  constructor(private readonly options: OutboxRelayOptions) {
    this.claimSeconds = options.claimSeconds ?? DEFAULT_CLAIM_SECONDS;
    this.loop = new PeriodicTask("outbox relay", options.intervalMs, () => this.tick(), options.logger);
  }

  start(): void {
    this.loop.start();
  }

  /** Rows were just committed: relay them now rather than at the next interval. */
  wake(): void {
    if (this.inBatch) this.wokenInBatch = true;
    this.loop.wake();
  }

  /** Stops polling; the outcomes of the last batch are marked before it returns. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.markNow().catch((error: unknown) => this.options.logger.warn({ err: error }, "marking published outbox rows failed"));
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

  /** One batch, marked before it returns; returns how many rows were published. */
  async relayOnce(): Promise<number> {
    const outcomes = await this.batch();
    this.unmarked.push(...outcomes);
    await this.markNow();
    return outcomes.filter((o) => o.error === null).length;
  }

  /** One run of the loop: true when another one should follow at once (a full batch). */
  private async tick(): Promise<boolean> {
    this.inBatch = true;
    this.wokenInBatch = false;
    try {
      const outcomes = await this.batch();
      const full = outcomes.length >= this.options.batchSize;
      this.unmarked.push(...outcomes);
      if (!full && !this.wokenInBatch) await this.markNow();
      return full;
    } finally {
      this.inBatch = false;
    }
  }

  /** The published_at / released state of claimed rows, as a data-modifying CTE (none without outcomes). */
  private marking(outcomes: readonly Outcome[]): Prisma.Sql {
    const values = outcomes.map((o) => Prisma.sql`(${o.id}::bigint, ${o.error === null}::boolean, ${o.error}::text)`);
    return Prisma.sql`marked AS (
      UPDATE outbox SET claimed_until = NULL,
        published_at = CASE WHEN v.published THEN now() ELSE outbox.published_at END,
        last_error = CASE WHEN v.published THEN outbox.last_error ELSE v.error END
      FROM (VALUES ${Prisma.join(values)}) AS v(id, published, error)
      WHERE outbox.id = v.id)`;
  }

  private async markNow(): Promise<void> {
    const outcomes = this.unmarked;
    if (outcomes.length === 0) return;
    await this.options.db.$executeRaw`WITH ${this.marking(outcomes)} SELECT 1`;
    this.unmarked = this.unmarked.filter((o) => !outcomes.includes(o));
  }

  /** Claims a batch (marking the last one's outcomes in the same statement) and publishes it. */
  private async batch(): Promise<Outcome[]> {
    const { db, bus, logger, metrics, batchSize } = this.options;
    const marks = this.unmarked;
    const rows = await db.$queryRaw<OutboxRow[]>`
      WITH ${marks.length > 0 ? Prisma.sql`${this.marking(marks)}, ` : Prisma.empty}claimed AS (
        UPDATE outbox SET claimed_until = now() + ${this.claimSeconds}::int * interval '1 second', attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM outbox WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY id LIMIT ${batchSize}::int FOR UPDATE SKIP LOCKED)
        RETURNING id, message_id::text AS message_id, type, payload, request_id, occurred_at, traceparent, tracestate)
      SELECT * FROM claimed ORDER BY id`;
    this.unmarked = this.unmarked.filter((o) => !marks.includes(o));
    if (rows.length === 0) return [];
    const results = await Promise.allSettled(
      rows.map(async (row) => {
        if (!EVENT_TYPES.has(row.type)) throw new Error(`unknown outbox message type ${row.type}`);
        await bus.publish(row.type as FilingEventType, row.payload as never, {
          messageId: row.message_id,
          occurredAt: row.occurred_at,
          requestId: row.request_id,
          // The trace of the change that wrote the event (none: the publish starts a trace).
          ...(row.traceparent ? { traceparent: row.traceparent } : {}),
          ...(row.tracestate ? { tracestate: row.tracestate } : {}),
        });
        metrics.eventsPublished.inc({ type: row.type });
      }),
    );
    return rows.map((row, i) => {
      const result = results[i]!;
      if (result.status === "fulfilled") return { id: row.id, error: null };
      const message = result.reason instanceof Error ? result.reason.message : String(result.reason);
      logger.warn({ err: result.reason, message_id: row.message_id, type: row.type }, "outbox publish failed; will retry");
      return { id: row.id, error: message.slice(0, 500) };
    });
  }
}
