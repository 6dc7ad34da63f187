import type {
  BusEnvelope,
  FilingAccepted,
  FilingDocumentsReady,
  FilingErrored,
  FilingRejected,
  SandboxWebhookEvent,
} from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { NotifierDb } from "../db/client.ts";
import { eventIdForMessage, newId, sandboxEventKey } from "../ids.ts";
import type { NotifierMetrics } from "../metrics.ts";
import type { DeliveryMode } from "../delivery/deliverer.ts";

export type FilingEventType = "filing.accepted" | "filing.rejected" | "filing.errored" | "filing.documents_ready";
type FilingEvent = FilingAccepted | FilingRejected | FilingErrored | FilingDocumentsReady;

export interface IntakeDeps {
  db: NotifierDb;
  logger: Logger;
  metrics: NotifierMetrics;
  /** Sends the deliver command of a delivery due now, on its mode's queue. */
  deliverNow: (deliveryId: string, mode: DeliveryMode) => Promise<void>;
}

export interface StoredEvent {
  /** The webhook id (`webhook-id`, the body's `id`). */
  id: string;
  /** The internal key, when the webhook id is unique only within the account (sandbox events). */
  key?: string;
  accountId: string;
  mode: "live" | "test";
  type: string;
  body: Record<string, unknown>;
}

/**
 * The webhook body of a filing event: `data` is the filing as GET /filings/{id} shows it, which
 * every event carries (`filing`). An event without it is about a filing removed after its
 * submit failed before reaching an authority: its caller got the error and was never shown the
 * filing's id, which no read can find, so there is nothing to tell (null).
 */
export function filingWebhookBody(type: FilingEventType, message: BusEnvelope<FilingEvent>, logger: Logger): StoredEvent | null {
  const event = message.payload;
  if (!event.filing) {
    logger.info(
      { filing_id: event.filing_id, type, message_id: message.message_id },
      "filing event without a filing view (a filing removed after a failed submit): no webhook",
    );
    return null;
  }
  const id = eventIdForMessage(message.message_id);
  return {
    id,
    accountId: event.account_id,
    mode: "live",
    type,
    body: { id, type, created_at: event.occurred_at, data: event.filing as Record<string, unknown> },
  };
}

/**
 * Stores an event and one delivery per matching endpoint atomically, then sends a deliver
 * command for each new delivery. The event id is the dedupe key: a redelivered event stores
 * nothing new and re-sends the commands of its deliveries still pending and never attempted (the
 * first run may have died between commit and publish). Publish failures throw: the bus retries
 * the event, and the sweeper catches whatever is still left.
 *
 * Two statements at most, no transaction: one read (the matching endpoints, and whether the
 * event is known), then one statement inserting the event and its deliveries together (a
 * data-modifying CTE: both or neither). An event nobody subscribes to and never stored (most of
 * them: an account without endpoints, or endpoints for other types) costs the read alone. The
 * endpoints were read without locks before too (READ COMMITTED, inside the transaction), so an
 * endpoint deleted meanwhile is handled as it was: its delivery is cancelled when attempted.
 */
export async function takeEvent(
  deps: IntakeDeps,
  event: StoredEvent,
  onlyEndpointId?: string,
): Promise<{ created: boolean; stored: boolean; deliveryIds: string[] }> {
  const { db, metrics } = deps;
  const key = event.key ?? event.id;
  const result = await (async () => {
    const [matching, params] = onlyEndpointId
      ? ["SELECT id FROM endpoints WHERE id = $2", [onlyEndpointId]]
      : [
          `SELECT id FROM endpoints
            WHERE account_id = $2 AND mode = $3 AND status = 'enabled' AND deleted_at IS NULL AND $4 = ANY(events)`,
          [event.accountId, event.mode, event.type],
        ];
    const read = await db.pool.query<{ endpoint_ids: string[]; known: boolean }>(
      `SELECT array(${matching}) AS endpoint_ids, EXISTS (SELECT 1 FROM events WHERE id = $1) AS known`,
      [key, ...params],
    );
    const endpointIds = read.rows[0]?.endpoint_ids ?? [];
    // Most accounts have no endpoint: nothing is stored for them (a redelivery looks again).
    if (endpointIds.length === 0 && !read.rows[0]?.known) return { created: false, stored: false, deliveryIds: [] as string[] };
    const deliveryIds = endpointIds.map(() => newId("wd"));
    const inserted = await db.pool.query<{ inserted: number }>(
      `WITH event AS (
         INSERT INTO events (id, webhook_id, account_id, mode, type, payload) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO NOTHING RETURNING id),
       delivery AS (
         INSERT INTO deliveries (id, event_id, endpoint_id)
         SELECT t.d, event.id, t.e FROM event, unnest($7::text[], $8::text[]) AS t(d, e))
       SELECT count(*)::int AS inserted FROM event`,
      [key, event.id, event.accountId, event.mode, event.type, JSON.stringify(event.body), deliveryIds, endpointIds],
    );
    if ((inserted.rows[0]?.inserted ?? 0) === 0) {
      const pending = await db.pool.query<{ id: string }>(
        "SELECT id FROM deliveries WHERE event_id = $1 AND state = 'pending' AND attempts = 0 AND (lease_until IS NULL OR lease_until <= now())",
        [key],
      );
      return { created: false, stored: true, deliveryIds: pending.rows.map((row) => row.id) };
    }
    return { created: true, stored: true, deliveryIds };
  })();
  metrics.events.inc({ type: event.type, result: result.created ? "new" : result.stored ? "duplicate" : "no_endpoint" });
  if (!result.stored) {
    deps.logger.debug(
      { event_id: event.id, type: event.type, account_id: event.accountId, mode: event.mode },
      "no webhook endpoint for this event",
    );
    return result;
  }
  for (const id of result.deliveryIds) await deps.deliverNow(id, event.mode);
  deps.logger.info(
    {
      event_id: event.id,
      type: event.type,
      account_id: event.accountId,
      mode: event.mode,
      deliveries: result.deliveryIds.length,
      new: result.created,
    },
    result.created ? "webhook event taken in" : "webhook event seen before; pending deliveries sent again",
  );
  return result;
}

/** The `notifier.events` handlers: filing events (live mode) and the gateway's sandbox events (test mode). */
export function intakeHandlers(deps: IntakeDeps) {
  const filing = (type: FilingEventType) => async (message: BusEnvelope<FilingEvent>) => {
    const event = filingWebhookBody(type, message, deps.logger);
    if (event) await takeEvent(deps, event);
  };
  return {
    "filing.accepted": filing("filing.accepted"),
    "filing.rejected": filing("filing.rejected"),
    "filing.errored": filing("filing.errored"),
    "filing.documents_ready": filing("filing.documents_ready"),
    "notifier.sandbox_event": async (message: BusEnvelope<SandboxWebhookEvent>) => {
      const { account_id, event } = message.payload;
      await takeEvent(deps, {
        id: event.id,
        key: sandboxEventKey(account_id, "test", event.id),
        accountId: account_id,
        mode: "test",
        type: event.type,
        body: event as Record<string, unknown>,
      });
    },
  };
}
