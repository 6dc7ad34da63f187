import { type DeliverWebhookCommand, NOTIFIER_DELIVERIES_QUEUE, PLATFORM_TOPOLOGY, type SealingKey } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { inTransaction, type NotifierDb } from "../db/client.ts";
import { type EndpointRow, signingSecrets } from "../endpoints/endpoint-row.ts";
import type { NotifierMetrics } from "../metrics.ts";
import { checkWebhookUrl } from "../safety/url-safety.ts";
import { claimAttemptSlot, releaseAttemptSlot, type SlotRefusal } from "./attempt-slots.ts";
import { type AttemptResult, postWebhook } from "./http-attempt.ts";
import { nextRetry } from "./schedule.ts";
import { signWebhook } from "./signature.ts";

/** The longest wait the bus can delay a command by; longer waits take several hops. */
export const LONGEST_WAIT_MS: number =
  PLATFORM_TOPOLOGY.workQueues.find((queue) => queue.name === NOTIFIER_DELIVERIES_QUEUE)?.waitTiersMs.at(-1) ?? 60 * 60 * 1000;
/** A command over the per-endpoint cap comes back after this long... */
const BUSY_RETRY_MS = 1000;
/** ... or this long when the endpoint's last attempt here failed (a dead endpoint's backlog churns less). */
const BUSY_FAILING_RETRY_MS = 5000;
/** A command that arrives up to this long before the delivery's next_attempt_at still attempts it. */
const EARLY_TOLERANCE_MS = 2000;
export const USER_AGENT = "dormant-notifier/1.0";

export interface DelivererSettings {
  timeoutMs: number;
  retryScheduleSeconds: readonly number[];
  retryHorizonSeconds: number;
  disableAfterSeconds: number;
  endpointConcurrency: number;
  /** Attempts in flight at once per account and mode, across every replica. */
  accountConcurrency: number;
  /** Attempts in flight at once per destination host and mode, across every replica. */
  hostConcurrency: number;
  allowPrivateUrls: boolean;
  httpsOnly: boolean;
  sealingKeys: readonly SealingKey[];
}

/** Live deliveries go on `notifier.deliveries`, test ones on `notifier.test_deliveries`. */
export type DeliveryMode = "live" | "test";

/** Sends a deliver command on the queue of `mode`, delayed by `delayMs`. */
export type PublishDeliver = (command: DeliverWebhookCommand, delayMs: number, mode: DeliveryMode) => Promise<void>;

export interface DelivererDeps {
  db: NotifierDb;
  logger: Logger;
  metrics: NotifierMetrics;
  settings: DelivererSettings;
  publish: PublishDeliver;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  state: string;
  attempts: number;
  next_attempt_at: Date;
  lease_until: Date | null;
  first_attempt_at: Date | null;
}

/** Publishes a deliver command for `dueAt` (now when absent), in hops of at most the longest wait tier. */
export function publishDeliverAt(
  publish: PublishDeliver,
  deliveryId: string,
  dueAt: Date | undefined,
  mode: DeliveryMode,
  now = Date.now(),
): Promise<void> {
  if (!dueAt || dueAt.getTime() <= now) return publish({ delivery_id: deliveryId }, 0, mode);
  const delayMs = Math.min(dueAt.getTime() - now, LONGEST_WAIT_MS);
  return publish({ delivery_id: deliveryId, due_at: dueAt.toISOString() }, delayMs, mode);
}

/**
 * Handles `notifier.deliver`: one attempt of one event to one endpoint, when it is due. Idempotent
 * (commands may be duplicated: the sweeper, a redelivery): a short database lease on the delivery
 * makes sure no two workers attempt it at once, and a command for a delivery not due yet (a stale
 * duplicate) is dropped. A failed attempt schedules its retry with a new delayed command.
 */
export class Deliverer {
  private readonly inFlight = new Map<string, number>();
  /** Endpoints whose last attempt in this process failed (bounded: cleared when it grows large). */
  private readonly failing = new Set<string>();

  constructor(private readonly deps: DelivererDeps) {}

  /** HTTP attempts in flight in this process. */
  get attemptsInFlight(): number {
    let total = 0;
    for (const count of this.inFlight.values()) total += count;
    return total;
  }

  /** `mode`: the queue the command came from; every command it sends again goes back there. */
  async handle(command: DeliverWebhookCommand, mode: DeliveryMode, signal?: AbortSignal): Promise<void> {
    const { db, logger, publish, settings } = this.deps;
    const dueAt = command.due_at ? new Date(command.due_at) : undefined;
    if (dueAt && dueAt.getTime() > Date.now() + 50) {
      // A wait longer than the longest tier: one more hop.
      await publishDeliverAt(publish, command.delivery_id, dueAt, mode);
      return;
    }
    const found = await db.pool.query<DeliveryRow>(
      "SELECT id, event_id, endpoint_id, state, attempts, next_attempt_at, lease_until, first_attempt_at FROM deliveries WHERE id = $1",
      [command.delivery_id],
    );
    const delivery = found.rows[0];
    if (!delivery) {
      logger.warn({ delivery_id: command.delivery_id }, "deliver command for an unknown delivery; dropped");
      return;
    }
    if (delivery.state !== "pending") return;

    // Busy endpoint (checked again, exactly, right before the POST): no database work for it now.
    if ((this.inFlight.get(delivery.endpoint_id) ?? 0) >= settings.endpointConcurrency) {
      await this.putBack(delivery, mode, command.due_at);
      return;
    }
    await this.attempt(delivery, mode, signal);
  }

  /**
   * Over the per-endpoint cap: the command comes back in 1 s instead of waiting here, so that the
   * other endpoints' commands keep flowing (prefetch slots are never held by a busy endpoint).
   */
  private async putBack(delivery: DeliveryRow, mode: DeliveryMode, dueAt?: string): Promise<void> {
    const delayMs = this.failing.has(delivery.endpoint_id) ? BUSY_FAILING_RETRY_MS : BUSY_RETRY_MS;
    this.deps.logger.debug(
      { delivery_id: delivery.id, endpoint_id: delivery.endpoint_id, delay_ms: delayMs },
      "endpoint busy: deliver command put back",
    );
    await this.deps.publish({ delivery_id: delivery.id, ...(dueAt ? { due_at: dueAt } : {}) }, delayMs, mode);
  }

  /** Takes one of the endpoint's in-flight slots (false: all taken); synchronous, so the cap is exact. */
  private reserve(endpointId: string): boolean {
    const running = this.inFlight.get(endpointId) ?? 0;
    if (running >= this.deps.settings.endpointConcurrency) return false;
    this.inFlight.set(endpointId, running + 1);
    return true;
  }

  private release(endpointId: string): void {
    const left = (this.inFlight.get(endpointId) ?? 1) - 1;
    if (left <= 0) this.inFlight.delete(endpointId);
    else this.inFlight.set(endpointId, left);
  }

  private async attempt(delivery: DeliveryRow, mode: DeliveryMode, signal?: AbortSignal): Promise<void> {
    const { db, logger, metrics, publish, settings } = this.deps;
    // Longer than an attempt (plus its bookkeeping): a worker killed mid-attempt holds it until then.
    const leaseMs = settings.timeoutMs + 10_000;
    // The lease, and the endpoint and event it is for, in one statement.
    const leased = await db.pool.query<
      Partial<EndpointRow & { body: string; event_type: string; webhook_id: string }> & {
        lease_attempts: number;
        lease_first_attempt_at: Date | null;
      }
    >(
      `WITH leased AS (
         UPDATE deliveries SET lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
          WHERE id = $1 AND state = 'pending' AND (lease_until IS NULL OR lease_until <= now())
            AND next_attempt_at <= now() + $3 * interval '1 millisecond'
          RETURNING attempts, first_attempt_at)
       SELECT leased.attempts AS lease_attempts, leased.first_attempt_at AS lease_first_attempt_at, loaded.*
         FROM leased LEFT JOIN (
           SELECT e.*, ev.payload::text AS body, ev.type AS event_type, ev.webhook_id
             FROM endpoints e JOIN events ev ON ev.id = $5 WHERE e.id = $4) AS loaded ON true`,
      [delivery.id, leaseMs, EARLY_TOLERANCE_MS, delivery.endpoint_id, delivery.event_id],
    );
    const lease = leased.rows[0];
    if (!lease) {
      logger.debug({ delivery_id: delivery.id, endpoint_id: delivery.endpoint_id }, "delivery not leased");
      const now = await db.pool.query<{ state: string; lease_ms: number | null; ahead_ms: number }>(
        `SELECT state, (extract(epoch FROM lease_until - now()) * 1000)::int AS lease_ms,
                (extract(epoch FROM next_attempt_at - now()) * 1000)::int AS ahead_ms
           FROM deliveries WHERE id = $1`,
        [delivery.id],
      );
      const row = now.rows[0];
      if (row?.state === "pending" && row.lease_ms !== null && row.lease_ms > 0) {
        // Another worker is attempting it: look again once its lease ends (it may fail and be due).
        await publish({ delivery_id: delivery.id }, Math.min(Math.max(row.lease_ms, BUSY_RETRY_MS), LONGEST_WAIT_MS), mode);
      }
      // Otherwise: settled meanwhile, or not due yet (a stale duplicate; its own command or the sweeper comes).
      return;
    }
    const attemptNumber = lease.lease_attempts + 1;
    // No row of the endpoint (or of the event) joined: its columns are null.
    const endpoint =
      lease.id === undefined || lease.id === null
        ? undefined
        : (lease as EndpointRow & { body: string; event_type: string; webhook_id: string });
    const fields = {
      delivery_id: delivery.id,
      event_id: endpoint?.webhook_id ?? delivery.event_id,
      endpoint_id: delivery.endpoint_id,
      attempt: attemptNumber,
    };
    if (!endpoint || endpoint.deleted_at || endpoint.status !== "enabled") {
      await db.pool.query(
        "UPDATE deliveries SET state = 'cancelled', lease_until = NULL, updated_at = now() WHERE id = $1 AND state = 'pending'",
        [delivery.id],
      );
      metrics.deliveries.inc({ outcome: "cancelled" });
      logger.info(fields, "delivery cancelled: its endpoint is deleted or disabled");
      return;
    }

    const attemptedAt = new Date();
    const check = await checkWebhookUrl(endpoint.url, { httpsOnly: settings.httpsOnly, allowPrivate: settings.allowPrivateUrls });
    let result: AttemptResult;
    if (!check.ok) {
      // The attempt (which the account reads) says why in general terms; the address is logged only.
      logger.warn({ ...fields, refusal: check.detail }, "webhook URL refused before an attempt");
      result = { delivered: false, error: `URL refused: ${check.reason}`, durationMs: 0 };
    } else {
      const timestamp = Math.floor(attemptedAt.getTime() / 1000);
      const secrets = signingSecrets(endpoint, settings.sealingKeys, attemptedAt);
      const address = check.addresses[0];
      // The limits shared by every replica: per endpoint, per account and mode, per host and mode.
      // Over one, the command comes back later instead of holding a consumer slot here. (Claimed
      // before the in-process slot, so that slot is held only for the POST itself.)
      const refused: SlotRefusal | null = await claimAttemptSlot(
        db,
        { deliveryId: delivery.id, endpointId: endpoint.id, accountId: endpoint.account_id, mode, url: endpoint.url, holdMs: leaseMs },
        { endpoint: settings.endpointConcurrency, account: settings.accountConcurrency, host: settings.hostConcurrency },
      );
      if (refused || !this.reserve(endpoint.id)) {
        // Over a shared limit, or lost the race for the endpoint's last slot here: give the slot
        // and the lease back and come back in 1 s.
        if (!refused) await releaseAttemptSlot(db, delivery.id);
        logger.debug({ ...fields, limit: refused ?? "endpoint" }, "attempt concurrency limit reached: deliver command put back");
        await db.pool.query("UPDATE deliveries SET lease_until = NULL WHERE id = $1 AND state = 'pending'", [delivery.id]);
        await this.putBack(delivery, mode);
        return;
      }
      try {
        result = address
          ? await postWebhook(
              {
                url: check.url,
                address,
                body: endpoint.body,
                timeoutMs: settings.timeoutMs,
                headers: {
                  "content-type": "application/json",
                  "user-agent": USER_AGENT,
                  "webhook-id": endpoint.webhook_id,
                  "webhook-timestamp": String(timestamp),
                  "webhook-signature": signWebhook(secrets, endpoint.webhook_id, timestamp, endpoint.body),
                },
              },
              signal,
            )
          : { delivered: false, error: "no address to connect to", durationMs: 0 };
      } finally {
        this.release(endpoint.id);
        await releaseAttemptSlot(db, delivery.id).catch((error: unknown) =>
          logger.warn({ err: error, ...fields }, "could not release the attempt slot; it expires by itself"),
        );
      }
    }
    metrics.attemptDuration.observe({ result: result.delivered ? "delivered" : "failed" }, result.durationMs / 1000);
    if (result.delivered) this.failing.delete(endpoint.id);
    else {
      if (this.failing.size >= 10_000) this.failing.clear();
      this.failing.add(endpoint.id);
    }
    const recorded = await this.record(delivery, endpoint, attemptNumber, attemptedAt, result);
    const outcome = { ...fields, status_code: result.statusCode, error: result.error, duration_ms: result.durationMs };
    if (result.delivered) {
      metrics.deliveries.inc({ outcome: "delivered" });
      logger.info(outcome, "webhook delivered");
      return;
    }
    metrics.deliveries.inc({ outcome: "failed_attempt" });
    if (recorded.cancelled > 0) metrics.deliveries.inc({ outcome: "cancelled" }, recorded.cancelled);
    if (recorded.disabled) logger.warn({ ...outcome, reason: recorded.disabled }, "webhook endpoint disabled: it kept failing");
    if (recorded.retryAt) {
      logger.info({ ...outcome, next_retry_at: recorded.retryAt.toISOString() }, "webhook attempt failed; retry scheduled");
      await publishDeliverAt(publish, delivery.id, recorded.retryAt, mode).catch((error: unknown) =>
        // The delivery stays pending and due: the sweeper sends the command again.
        logger.warn({ err: error, ...fields }, "could not schedule the retry on the bus; the sweeper will"),
      );
    } else if (recorded.givenUp) {
      metrics.deliveries.inc({ outcome: "given_up" });
      logger.warn(outcome, "webhook delivery given up: the retry horizon passed");
    }
  }

  /**
   * A delivered attempt in one statement (atomic without a transaction): the endpoint's failing
   * streak cleared, the delivery delivered, the attempt row. Rows are locked endpoint first, then
   * the delivery, as everywhere (see record): the deliveries update reads the endpoint update's
   * result in its condition (an init plan, evaluated before the update locks any row), so the
   * endpoint's row, when it is failing and so updated, is locked first.
   */
  private async recordDelivered(
    delivery: DeliveryRow,
    endpoint: EndpointRow,
    attemptNumber: number,
    attemptedAt: Date,
    result: AttemptResult,
  ): Promise<{ cancelled: number }> {
    await this.deps.db.pool.query(
      `WITH endpoint AS (
         UPDATE endpoints SET failing_since = NULL WHERE id = $4 AND failing_since IS NOT NULL RETURNING id),
       delivery AS (
         UPDATE deliveries SET state = CASE WHEN state = 'pending' THEN 'delivered' ELSE state END, attempts = $2,
                delivered_at = $3, first_attempt_at = coalesce(first_attempt_at, $3), lease_until = NULL, updated_at = now()
          WHERE id = $1 AND (SELECT count(*) FROM endpoint) >= 0
          RETURNING id)
       INSERT INTO attempts (delivery_id, endpoint_id, event_id, attempt, attempted_at, outcome, status_code, error, duration_ms, response_body, next_retry_at)
       SELECT delivery.id, $5::text, $6::text, $2::int, $3::timestamptz, 'delivered', $7::int, $8::text, $9::int, $10::text, NULL
         FROM delivery
       ON CONFLICT (delivery_id, attempt) DO NOTHING`,
      [
        delivery.id,
        attemptNumber,
        attemptedAt,
        endpoint.id,
        delivery.endpoint_id,
        delivery.event_id,
        result.statusCode ?? null,
        result.error?.slice(0, 500) ?? null,
        result.durationMs,
        result.responseBody ?? null,
      ],
    );
    return { cancelled: 0 };
  }

  /** Records the attempt and its consequences in one transaction. */
  private record(
    delivery: DeliveryRow,
    endpoint: EndpointRow,
    attemptNumber: number,
    attemptedAt: Date,
    result: AttemptResult,
  ): Promise<{ retryAt?: Date; givenUp?: boolean; disabled?: string; cancelled: number }> {
    const { db, settings } = this.deps;
    if (result.delivered) return this.recordDelivered(delivery, endpoint, attemptNumber, attemptedAt, result);
    return inTransaction(db, async (tx) => {
      const attemptRow = (nextRetryAt: Date | null) =>
        tx.query(
          `INSERT INTO attempts (delivery_id, endpoint_id, event_id, attempt, attempted_at, outcome, status_code, error, duration_ms, response_body, next_retry_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (delivery_id, attempt) DO NOTHING`,
          [
            delivery.id,
            delivery.endpoint_id,
            delivery.event_id,
            attemptNumber,
            attemptedAt,
            result.delivered ? "delivered" : "failed",
            result.statusCode ?? null,
            result.error?.slice(0, 500) ?? null,
            result.durationMs,
            result.responseBody ?? null,
            nextRetryAt,
          ],
        );
      // Rows are locked endpoint first, then its deliveries, in the order deleting or disabling an
      // endpoint takes them (notifier.delete_endpoint): the opposite order deadlocked (40P01) when
      // an endpoint was deleted while one of its attempts was being recorded.
      const firstAttemptAt = delivery.first_attempt_at ?? attemptedAt;
      const retry = nextRetry(settings.retryScheduleSeconds, settings.retryHorizonSeconds, attemptNumber, firstAttemptAt, new Date());
      const failing = await tx.query<{ failing_since: Date; status: string }>(
        "UPDATE endpoints SET failing_since = coalesce(failing_since, $2) WHERE id = $1 RETURNING failing_since, status",
        [endpoint.id, attemptedAt],
      );
      const updated = await tx.query<{ state: string }>(
        `UPDATE deliveries SET attempts = $2, first_attempt_at = coalesce(first_attempt_at, $3), lease_until = NULL, updated_at = now(),
                state = CASE WHEN state = 'pending' AND $4::timestamptz IS NULL THEN 'failed' ELSE state END,
                next_attempt_at = coalesce($4::timestamptz, next_attempt_at)
          WHERE id = $1 RETURNING state`,
        [delivery.id, attemptNumber, attemptedAt, retry?.retryAt ?? null],
      );
      const since = failing.rows[0]?.failing_since ?? attemptedAt;
      let disabled: string | undefined;
      let cancelled = 0;
      if (failing.rows[0]?.status === "enabled" && attemptedAt.getTime() - since.getTime() >= settings.disableAfterSeconds * 1000) {
        disabled =
          `every delivery attempt failed since ${since.toISOString()} (last: ${result.error ?? `HTTP ${result.statusCode}`})`.slice(0, 500);
        await tx.query(
          "UPDATE endpoints SET status = 'disabled', disabled_at = now(), disabled_reason = $2 WHERE id = $1 AND status = 'enabled'",
          [endpoint.id, disabled],
        );
        const cancelledRows = await tx.query(
          "UPDATE deliveries SET state = 'cancelled', lease_until = NULL, updated_at = now() WHERE endpoint_id = $1 AND state = 'pending'",
          [endpoint.id],
        );
        cancelled = cancelledRows.rowCount ?? 0;
      }
      const stillPending = updated.rows[0]?.state === "pending" && !disabled;
      await attemptRow(stillPending && retry ? retry.retryAt : null);
      return {
        cancelled,
        ...(disabled ? { disabled } : {}),
        ...(stillPending && retry ? { retryAt: retry.retryAt } : {}),
        ...(updated.rows[0]?.state === "failed" ? { givenUp: true } : {}),
      };
    });
  }
}
