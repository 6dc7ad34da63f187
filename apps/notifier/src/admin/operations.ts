import type { NotifierDb } from "../db/client.ts";
import { newId } from "../ids.ts";

/** A refusal of an operator command (unknown event or endpoint, mismatch): exit code 1, the message on stderr. */
export class AdminError extends Error {
  override name = "AdminError";
}

export interface EndpointAdminView {
  id: string;
  mode: string;
  url: string;
  events: string[];
  description: string | null;
  status: string;
  disabled_at: string | null;
  disabled_reason: string | null;
  failing_since: string | null;
  created_at: string;
  pending_deliveries: number;
}

/** An account's endpoints (not deleted), newest first, with their failure state and pending deliveries. Never a secret. */
export async function listAccountEndpoints(
  db: NotifierDb,
  accountId: string,
  mode?: "live" | "test",
): Promise<{ account_id: string; endpoints: EndpointAdminView[] }> {
  const rows = await db.pool.query<{
    id: string;
    mode: string;
    url: string;
    events: string[];
    description: string | null;
    status: string;
    disabled_at: Date | null;
    disabled_reason: string | null;
    failing_since: Date | null;
    created_at: Date;
    pending: number;
  }>(
    `SELECT e.id, e.mode, e.url, e.events, e.description, e.status, e.disabled_at, e.disabled_reason, e.failing_since, e.created_at,
            (SELECT count(*)::int FROM deliveries d WHERE d.endpoint_id = e.id AND d.state = 'pending') AS pending
       FROM endpoints e
      WHERE e.account_id = $1 AND ($2::text IS NULL OR e.mode = $2) AND e.deleted_at IS NULL
      ORDER BY e.created_at DESC, e.id DESC`,
    [accountId, mode ?? null],
  );
  return {
    account_id: accountId,
    endpoints: rows.rows.map((row) => ({
      id: row.id,
      mode: row.mode,
      url: row.url,
      events: row.events,
      description: row.description,
      status: row.status,
      disabled_at: row.disabled_at?.toISOString() ?? null,
      disabled_reason: row.disabled_reason,
      failing_since: row.failing_since?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
      pending_deliveries: row.pending,
    })),
  };
}

/**
 * Creates, or re-arms, the delivery of an event to an endpoint of the same account and mode: it
 * becomes pending and due now, with a fresh retry horizon (attempt numbers go on). The caller
 * sends the deliver command (and the sweeper would, within a minute, if that failed).
 */
export async function armReplay(
  db: NotifierDb,
  eventId: string,
  endpointId: string,
): Promise<{
  delivery_id: string;
  event_id: string;
  endpoint_id: string;
  mode: "live" | "test";
  rearmed: boolean;
  previous_state: string | null;
}> {
  const endpoint = await db.pool.query<{ account_id: string; mode: "live" | "test"; status: string }>(
    "SELECT account_id, mode, status FROM endpoints WHERE id = $1 AND deleted_at IS NULL",
    [endpointId],
  );
  const target = endpoint.rows[0];
  if (!target) throw new AdminError(`no endpoint ${endpointId} (or it is deleted)`);
  if (target.status !== "enabled") throw new AdminError(`endpoint ${endpointId} is disabled; nothing would be sent`);
  // The event as the endpoint's account and mode know it (webhook ids are unique per account and mode).
  const found = await db.pool.query<{ id: string }>("SELECT id FROM events WHERE webhook_id = $1 AND account_id = $2 AND mode = $3", [
    eventId,
    target.account_id,
    target.mode,
  ]);
  const eventKey = found.rows[0]?.id;
  if (!eventKey) throw new AdminError(`no event ${eventId} of the account and mode of endpoint ${endpointId}`);
  const previous = await db.pool.query<{ state: string }>("SELECT state FROM deliveries WHERE event_id = $1 AND endpoint_id = $2", [
    eventKey,
    endpointId,
  ]);
  const armed = await db.pool.query<{ id: string }>(
    `INSERT INTO deliveries (id, event_id, endpoint_id) VALUES ($1, $2, $3)
     ON CONFLICT (event_id, endpoint_id) DO UPDATE
        SET state = 'pending', next_attempt_at = now(), first_attempt_at = NULL, delivered_at = NULL, lease_until = NULL, updated_at = now()
     RETURNING id`,
    [newId("wd"), eventKey, endpointId],
  );
  const id = armed.rows[0]?.id;
  if (!id) throw new Error("the delivery was not written");
  return {
    delivery_id: id,
    event_id: eventId,
    endpoint_id: endpointId,
    mode: target.mode,
    rearmed: previous.rowCount !== 0,
    previous_state: previous.rows[0]?.state ?? null,
  };
}
