import type { RpcHandlerMap } from "@dormant/bus";
import {
  AppError,
  isAppError,
  MAX_WEBHOOK_ENDPOINTS_PER_MODE,
  type SealingKey,
  WEBHOOK_EVENT_TYPES,
  type WebhookCaller,
  type WebhookDeliveryAttempt,
  type DeliveredEventType,
} from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { NOTIFIER_RPC_CATALOG } from "../bus/catalog.ts";
import { inTransaction, type NotifierDb } from "../db/client.ts";
import { newWebhookSecret } from "../delivery/signature.ts";
import { newId } from "../ids.ts";
import { takeEvent, type IntakeDeps } from "../intake/intake.ts";
import { checkWebhookUrl } from "../safety/url-safety.ts";
import { type EndpointRow, endpointView, sealEndpointSecret } from "./endpoint-row.ts";

export interface EndpointRpcDeps extends IntakeDeps {
  db: NotifierDb;
  logger: Logger;
  sealingKeys: readonly SealingKey[];
  allowPrivateUrls: boolean;
  httpsOnly: boolean;
  secretOverlapSeconds: number;
}

const notFound = (id: string) => new AppError("WEBHOOK_ENDPOINT_NOT_FOUND", `No webhook endpoint ${id}`);

/** A database failure is the caller's retryable SERVICE_UNAVAILABLE (the cause only in our log); AppErrors pass. */
function unavailable(error: unknown, logger: Logger, what: string): AppError {
  if (isAppError(error)) return error;
  logger.error({ err: error }, `${what} failed`);
  return new AppError("SERVICE_UNAVAILABLE", "Webhooks are temporarily unavailable; retry shortly", {
    retryable: true,
    retryAfterSeconds: 1,
    cause: error,
  });
}

const pagination = (total: number, limit: number, offset: number) => ({ total, limit, offset, has_more: offset + limit < total });

/**
 * `notifier.rpc`: an account's webhook endpoints, in one key mode. Every request names its caller
 * (account and mode); an endpoint of another account or mode does not exist for it
 * (WEBHOOK_ENDPOINT_NOT_FOUND), nor does a deleted one.
 */
export function endpointRpcHandlers(deps: EndpointRpcDeps): RpcHandlerMap<typeof NOTIFIER_RPC_CATALOG, "notifier.rpc"> {
  const { db, logger } = deps;

  const visible = async (caller: WebhookCaller, id: string): Promise<EndpointRow> => {
    const found = await db.pool.query<EndpointRow>(
      "SELECT * FROM endpoints WHERE id = $1 AND account_id = $2 AND mode = $3 AND deleted_at IS NULL",
      [id, caller.account_id, caller.mode],
    );
    const row = found.rows[0];
    if (!row) throw notFound(id);
    return row;
  };

  /**
   * The URL safety check (create, enable; the deliverer checks before every attempt too):
   * VALIDATION_ERROR on `url` with the reason in general terms; the address a name resolved to is
   * logged here, never answered.
   */
  const refuseUnsafeUrl = async (caller: WebhookCaller, url: string, endpointId?: string): Promise<void> => {
    const check = await checkWebhookUrl(url, { httpsOnly: deps.httpsOnly, allowPrivate: deps.allowPrivateUrls });
    if (!check.ok) {
      logger.warn(
        { account_id: caller.account_id, mode: caller.mode, ...(endpointId ? { endpoint_id: endpointId } : {}), refusal: check.detail },
        "webhook URL refused",
      );
      throw new AppError("VALIDATION_ERROR", `The webhook URL is refused: ${check.reason}`, {
        details: [{ field: "url", message: check.reason }],
      });
    }
  };

  const guarded =
    <Req, Res>(what: string, fn: (request: Req) => Promise<Res>) =>
    async (request: Req): Promise<Res> => {
      try {
        return await fn(request);
      } catch (error) {
        throw unavailable(error, logger, what);
      }
    };

  return {
    "notifier.create_endpoint": guarded("notifier.create_endpoint", async ({ caller, endpoint }) => {
      await refuseUnsafeUrl(caller, endpoint.url);
      const id = newId("we");
      const secret = newWebhookSecret();
      const [key] = deps.sealingKeys;
      if (!key) throw new Error("no sealing key");
      const inserted = await inTransaction(db, async (tx) => {
        // Serialises creation per account and mode (every replica), so the cap holds under
        // concurrent calls; released at commit.
        await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`endpoints:${caller.account_id}:${caller.mode}`]);
        const count = await tx.query<{ total: number }>(
          "SELECT count(*)::int AS total FROM endpoints WHERE account_id = $1 AND mode = $2 AND deleted_at IS NULL",
          [caller.account_id, caller.mode],
        );
        const total = count.rows[0]?.total ?? 0;
        if (total >= MAX_WEBHOOK_ENDPOINTS_PER_MODE) {
          throw new AppError(
            "VALIDATION_ERROR",
            `An account may have at most ${MAX_WEBHOOK_ENDPOINTS_PER_MODE} webhook endpoints per mode (${caller.mode}); delete one first`,
            {
              details: [
                {
                  field: "url",
                  message: `endpoint limit reached: ${total} of ${MAX_WEBHOOK_ENDPOINTS_PER_MODE} ${caller.mode} endpoints in use; delete one first`,
                },
              ],
            },
          );
        }
        return tx.query<EndpointRow>(
          `INSERT INTO endpoints (id, account_id, mode, url, events, description, secret_sealed)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
          [
            id,
            caller.account_id,
            caller.mode,
            endpoint.url,
            endpoint.events ?? [...WEBHOOK_EVENT_TYPES],
            endpoint.description ?? null,
            JSON.stringify(sealEndpointSecret(secret, id, key)),
          ],
        );
      });
      const row = inserted.rows[0];
      if (!row) throw new Error("endpoint insert returned nothing");
      logger.info({ endpoint_id: id, account_id: caller.account_id, mode: caller.mode, events: row.events }, "webhook endpoint created");
      return { ...endpointView(row), secret };
    }),

    "notifier.list_endpoints": guarded("notifier.list_endpoints", async ({ caller, limit, offset }) => {
      const [rows, count] = await Promise.all([
        db.pool.query<EndpointRow>(
          `SELECT * FROM endpoints WHERE account_id = $1 AND mode = $2 AND deleted_at IS NULL
            ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
          [caller.account_id, caller.mode, limit, offset],
        ),
        db.pool.query<{ total: number }>(
          "SELECT count(*)::int AS total FROM endpoints WHERE account_id = $1 AND mode = $2 AND deleted_at IS NULL",
          [caller.account_id, caller.mode],
        ),
      ]);
      const total = count.rows[0]?.total ?? 0;
      return { endpoints: rows.rows.map(endpointView), pagination: pagination(total, limit, offset) };
    }),

    "notifier.get_endpoint": guarded("notifier.get_endpoint", async ({ caller, endpoint_id }) =>
      endpointView(await visible(caller, endpoint_id)),
    ),

    "notifier.delete_endpoint": guarded("notifier.delete_endpoint", async ({ caller, endpoint_id }) => {
      const client = await db.pool.connect();
      try {
        await client.query("BEGIN");
        const deleted = await client.query(
          "UPDATE endpoints SET deleted_at = now() WHERE id = $1 AND account_id = $2 AND mode = $3 AND deleted_at IS NULL RETURNING id",
          [endpoint_id, caller.account_id, caller.mode],
        );
        if (deleted.rowCount === 0) throw notFound(endpoint_id);
        const cancelled = await client.query(
          "UPDATE deliveries SET state = 'cancelled', updated_at = now() WHERE endpoint_id = $1 AND state = 'pending'",
          [endpoint_id],
        );
        await client.query("COMMIT");
        if (cancelled.rowCount) deps.metrics.deliveries.inc({ outcome: "cancelled" }, cancelled.rowCount);
        logger.info({ endpoint_id, account_id: caller.account_id, cancelled: cancelled.rowCount ?? 0 }, "webhook endpoint deleted");
        return { id: endpoint_id, deleted: true as const };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    }),

    "notifier.rotate_secret": guarded("notifier.rotate_secret", async ({ caller, endpoint_id }) => {
      await visible(caller, endpoint_id);
      const secret = newWebhookSecret();
      const [key] = deps.sealingKeys;
      if (!key) throw new Error("no sealing key");
      const rotated = await db.pool.query<EndpointRow>(
        `UPDATE endpoints SET previous_secret_sealed = secret_sealed, secret_sealed = $2,
                previous_until = now() + $3 * interval '1 second'
          WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
        [endpoint_id, JSON.stringify(sealEndpointSecret(secret, endpoint_id, key)), deps.secretOverlapSeconds],
      );
      const row = rotated.rows[0];
      if (!row) throw notFound(endpoint_id);
      logger.info(
        { endpoint_id, account_id: caller.account_id },
        "webhook endpoint secret rotated (the previous one still signs for the overlap)",
      );
      return { ...endpointView(row), secret };
    }),

    // A disabled endpoint back in service: the same id and secret, its URL checked again, its
    // failure clock reset (else its next failure would disable it again at once). Deliveries
    // cancelled while it was disabled stay cancelled; events from now on are delivered.
    "notifier.enable_endpoint": guarded("notifier.enable_endpoint", async ({ caller, endpoint_id }) => {
      const endpoint = await visible(caller, endpoint_id);
      if (endpoint.status === "enabled") return endpointView(endpoint);
      await refuseUnsafeUrl(caller, endpoint.url, endpoint_id);
      const enabled = await db.pool.query<EndpointRow>(
        `UPDATE endpoints SET status = 'enabled', disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
          WHERE id = $1 AND deleted_at IS NULL RETURNING *`,
        [endpoint_id],
      );
      const row = enabled.rows[0];
      if (!row) throw notFound(endpoint_id);
      logger.info({ endpoint_id, account_id: caller.account_id, mode: caller.mode }, "webhook endpoint enabled again");
      return endpointView(row);
    }),

    "notifier.send_test": guarded("notifier.send_test", async ({ caller, endpoint_id }) => {
      const endpoint = await visible(caller, endpoint_id);
      const id = newId("evt", 24);
      const body = {
        id,
        type: "webhook.test",
        created_at: new Date().toISOString(),
        data: { endpoint_id, message: "A test event sent on request: this endpoint receives and verifies webhooks." },
      };
      await takeEvent(deps, { id, accountId: endpoint.account_id, mode: endpoint.mode, type: "webhook.test", body }, endpoint_id);
      return { event_id: id, endpoint_id, type: "webhook.test" as const };
    }),

    "notifier.list_deliveries": guarded("notifier.list_deliveries", async ({ caller, endpoint_id, limit, offset }) => {
      await visible(caller, endpoint_id);
      const [rows, count] = await Promise.all([
        db.pool.query<{
          event_id: string;
          type: string;
          attempt: number;
          attempted_at: Date;
          outcome: "delivered" | "failed";
          status_code: number | null;
          error: string | null;
          duration_ms: number;
          next_retry_at: Date | null;
        }>(
          `SELECT ev.webhook_id AS event_id, ev.type, a.attempt, a.attempted_at, a.outcome, a.status_code, a.error, a.duration_ms, a.next_retry_at
             FROM attempts a JOIN events ev ON ev.id = a.event_id
            WHERE a.endpoint_id = $1 ORDER BY a.attempted_at DESC, a.id DESC LIMIT $2 OFFSET $3`,
          [endpoint_id, limit, offset],
        ),
        db.pool.query<{ total: number }>("SELECT count(*)::int AS total FROM attempts WHERE endpoint_id = $1", [endpoint_id]),
      ]);
      const deliveries: WebhookDeliveryAttempt[] = rows.rows.map((row) => ({
        event_id: row.event_id,
        event_type: row.type as DeliveredEventType,
        attempt: row.attempt,
        attempted_at: row.attempted_at.toISOString(),
        outcome: row.outcome,
        ...(row.status_code !== null ? { status_code: row.status_code } : {}),
        ...(row.error !== null ? { error: row.error } : {}),
        duration_ms: row.duration_ms,
        ...(row.next_retry_at ? { next_retry_at: row.next_retry_at.toISOString() } : {}),
      }));
      return { deliveries, pagination: pagination(count.rows[0]?.total ?? 0, limit, offset) };
    }),
  };
}
