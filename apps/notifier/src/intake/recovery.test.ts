import { randomUUID } from "node:crypto";
import { waitFor } from "@dormant/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { runNotifierAdminCli } from "../admin/cli-commands.ts";
import { purgeSettledDeliveries } from "../delivery/retention.ts";
import { eventIdForMessage, newId } from "../ids.ts";
import { type Listener, startListener } from "../test-support/listener.ts";
import { useNotifier } from "../test-support/notifier-fixture.ts";

/** Runs the admin CLI in-process against the fixture's database and vhost. */
async function admin(argv: string[], env: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const code = await runNotifierAdminCli(argv, env, {
    stdout: {
      write: (chunk: string) => {
        stdout += chunk;
        return true;
      },
    },
    stderr: {
      write: (chunk: string) => {
        stderr += chunk;
        return true;
      },
    },
  });
  return { code, stdout, stderr, json: stdout ? (JSON.parse(stdout) as Record<string, unknown>) : undefined };
}

// Nothing is lost between the intake's commit and its publish: the sweeper and the redelivered
// event send the deliver commands again. Also: the admin CLI, metrics, and logs without secrets.
describe("notifier recovery, operations and logs", () => {
  const fixture = useNotifier(
    "recovery",
    { WEBHOOK_SWEEP_OVERDUE_SECONDS: "20", WEBHOOK_RETRY_HORIZON_SECONDS: "2" },
    { captureLogs: true },
  );
  const listeners: Listener[] = [];
  afterAll(async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
  });
  const setup = async () => {
    const listener = await startListener();
    listeners.push(listener);
    const caller = fixture.caller("live");
    const endpoint = await fixture.platform.rpcCall("notifier.rpc", "notifier.create_endpoint", {
      caller,
      endpoint: { url: listener.url },
    });
    return { listener, caller, endpoint };
  };
  /** What the intake's transaction writes, without its publish (as if the process died right after the commit). */
  const committedOnly = async (accountId: string, endpointId: string, eventId: string, dueSecondsAgo: number) => {
    const body = {
      id: eventId,
      type: "filing.accepted",
      created_at: new Date().toISOString(),
      data: { filing_id: "fil_x", status: "accepted" },
    };
    await fixture.db.pool.query(
      "INSERT INTO events (id, webhook_id, account_id, mode, type, payload) VALUES ($1, $1, $2, 'live', 'filing.accepted', $3)",
      [eventId, accountId, JSON.stringify(body)],
    );
    await fixture.db.pool.query(
      "INSERT INTO deliveries (id, event_id, endpoint_id, next_attempt_at) VALUES ($1, $2, $3, now() - $4 * interval '1 second')",
      [newId("wd"), eventId, endpointId, dueSecondsAgo],
    );
  };

  it("the sweeper sends the deliver command of a delivery committed but never published", async () => {
    const { listener, caller, endpoint } = await setup();
    const eventId = eventIdForMessage(randomUUID());
    await committedOnly(caller.account_id, endpoint.id, eventId, 60);
    await waitFor(() => listener.received.length === 1, { what: "the swept delivery", timeoutMs: 5_000 });
    expect(listener.received[0]?.headers["webhook-id"]).toBe(eventId);
  });

  it("a redelivered event sends the commands of its deliveries never attempted", async () => {
    const { listener, caller, endpoint } = await setup();
    const messageId = randomUUID();
    await committedOnly(caller.account_id, endpoint.id, eventIdForMessage(messageId), 0);
    // Not overdue for the sweeper (20 s): only the redelivered event can send it now.
    await fixture.publishAccepted(caller.account_id, { messageId });
    await waitFor(() => listener.received.length === 1, { what: "the delivery sent again", timeoutMs: 3_000 });
    const request = listener.received[0];
    expect(new Webhook(endpoint.secret).verify(request?.body ?? "", request?.headers as Record<string, string>)).toMatchObject({
      id: eventIdForMessage(messageId),
      data: { filing_id: "fil_x" },
    });
  });

  it("a delivery leased by a worker that died is attempted once its lease runs out", async () => {
    const { listener, caller, endpoint } = await setup();
    const eventId = eventIdForMessage(randomUUID());
    await committedOnly(caller.account_id, endpoint.id, eventId, 0);
    // As a notifier killed mid-attempt leaves it: leased, then its unacknowledged command redelivered.
    const lease = await fixture.db.pool.query<{ id: string }>(
      "UPDATE deliveries SET lease_until = now() + interval '2 seconds' WHERE event_id = $1 RETURNING id",
      [eventId],
    );
    const started = Date.now();
    await fixture.platform.publish("notifier.deliver", { delivery_id: lease.rows[0]?.id ?? "" });
    await waitFor(() => listener.received.length === 1, { what: "the attempt after the lease", timeoutMs: 6_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(listener.received[0]?.headers["webhook-id"]).toBe(eventId);
  });

  it("admin: lists an account's endpoints and replays an event to an endpoint", async () => {
    const { listener, caller, endpoint } = await setup();
    const env = { NOTIFIER_DATABASE_URL: fixture.db.pool.options.connectionString ?? "", AMQP_URL: fixture.vhost.url };
    const listed = await admin(["webhook-endpoints", "--account", caller.account_id, "--mode", "live"], env);
    expect(listed.code).toBe(0);
    expect(listed.json).toMatchObject({
      account_id: caller.account_id,
      endpoints: [{ id: endpoint.id, status: "enabled", pending_deliveries: 0 }],
    });
    expect(listed.stdout).not.toContain("whsec_");
    expect(listed.stdout).not.toContain("secret");

    const { messageId } = await fixture.publishAccepted(caller.account_id);
    await waitFor(() => listener.received.length === 1, { what: "the first delivery" });
    await waitFor(async () => {
      const state = await fixture.db.pool.query("SELECT state FROM deliveries WHERE endpoint_id = $1", [endpoint.id]);
      return state.rows[0]?.state === "delivered";
    });
    const replayed = await admin(["replay-webhook", "--event", eventIdForMessage(messageId), "--endpoint", endpoint.id], env);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.json).toMatchObject({
      event_id: eventIdForMessage(messageId),
      endpoint_id: endpoint.id,
      rearmed: true,
      previous_state: "delivered",
      command_sent: true,
    });
    await waitFor(() => listener.received.length === 2, { what: "the replay" });
    expect(listener.received[1]?.headers["webhook-id"]).toBe(listener.received[0]?.headers["webhook-id"]);
    expect(listener.received[1]?.body).toBe(listener.received[0]?.body);

    expect((await admin(["replay-webhook", "--event", "evt_00000000000000000000", "--endpoint", endpoint.id], env)).code).toBe(1);
    expect((await admin(["replay-webhook", "--event", "nope"], env)).code).toBe(2);
    expect((await admin(["webhook-endpoints"], env)).code).toBe(2);
  });

  it("gives a delivery up once its next attempt would pass the retry horizon (2 s here); the endpoint stays enabled", async () => {
    const listener = await startListener(() => ({ status: 500 }));
    listeners.push(listener);
    const caller = fixture.caller("live");
    const endpoint = await fixture.platform.rpcCall("notifier.rpc", "notifier.create_endpoint", {
      caller,
      endpoint: { url: listener.url },
    });
    await fixture.publishAccepted(caller.account_id);
    const delivery = await waitFor(
      async () => {
        const rows = await fixture.db.pool.query("SELECT state, attempts FROM deliveries WHERE endpoint_id = $1", [endpoint.id]);
        return rows.rows[0]?.state === "failed" ? rows.rows[0] : undefined;
      },
      { what: "the delivery given up", timeoutMs: 8_000 },
    );
    expect(delivery.attempts).toBe(listener.received.length);
    expect(delivery.attempts).toBeGreaterThanOrEqual(2);
    const page = await fixture.platform.rpcCall("notifier.rpc", "notifier.list_deliveries", {
      caller,
      endpoint_id: endpoint.id,
      limit: 10,
      offset: 0,
    });
    expect(page.deliveries[0]).toMatchObject({ outcome: "failed", status_code: 500 });
    expect(page.deliveries[0]).not.toHaveProperty("next_retry_at");
    const got = await fixture.platform.rpcCall("notifier.rpc", "notifier.get_endpoint", { caller, endpoint_id: endpoint.id });
    expect(got.status).toBe("enabled");
    const metrics = await (await fetch(`${fixture.notifier.url}/metrics`)).text();
    expect(metrics).toMatch(/webhook_deliveries_total\{[^}]*outcome="given_up"[^}]*\} [1-9]/);
  });

  it("exposes the webhook metrics on /metrics", async () => {
    await waitFor(async () => {
      const text = await (await fetch(`${fixture.notifier.url}/metrics`)).text();
      return (
        /webhook_deliveries_total\{[^}]*outcome="delivered"[^}]*\} [1-9]/.test(text) && /webhook_backlog_age_seconds\{[^}]*\} \d/.test(text)
      );
    });
    const text = await (await fetch(`${fixture.notifier.url}/metrics`)).text();
    expect(text).toContain("webhook_attempt_duration_seconds_bucket");
    expect((await fetch(`${fixture.notifier.url}/readyz`)).status).toBe(200);
  });

  it("never logs a signing secret", async () => {
    const { caller, endpoint } = await setup();
    const rotated = await fixture.platform.rpcCall("notifier.rpc", "notifier.rotate_secret", { caller, endpoint_id: endpoint.id });
    await fixture.platform.rpcCall("notifier.rpc", "notifier.send_test", { caller, endpoint_id: endpoint.id });
    await waitFor(() => fixture.logs.some((line) => line.includes("webhook delivered")));
    const all = fixture.logs.join("\n");
    expect(all).toContain(endpoint.id);
    for (const secret of [endpoint.secret, rotated.secret]) expect(all).not.toContain(secret.slice("whsec_".length));
    expect(all).not.toContain("whsec_");
  });

  it("retention purges settled deliveries, their attempts and orphaned events, never pending ones", async () => {
    const { listener, caller, endpoint } = await setup();
    await fixture.platform.rpcCall("notifier.rpc", "notifier.send_test", { caller, endpoint_id: endpoint.id });
    await waitFor(() => listener.received.length === 1, { what: "the test event" });
    await waitFor(async () => {
      const rows = await fixture.db.pool.query("SELECT 1 FROM deliveries WHERE endpoint_id = $1 AND state = 'delivered'", [endpoint.id]);
      return rows.rowCount === 1;
    });
    const pendingKey = eventIdForMessage(randomUUID());
    await committedOnly(caller.account_id, endpoint.id, pendingKey, -3600);
    await fixture.db.pool.query("UPDATE deliveries SET updated_at = now() - interval '2 days' WHERE endpoint_id = $1", [endpoint.id]);
    while (await purgeSettledDeliveries(fixture.db, 24 * 60 * 60, 1));
    const left = await fixture.db.pool.query<{ state: string; event_id: string }>(
      "SELECT state, event_id FROM deliveries WHERE endpoint_id = $1",
      [endpoint.id],
    );
    expect(left.rows).toEqual([{ state: "pending", event_id: pendingKey }]);
    const attempts = await fixture.db.pool.query("SELECT 1 FROM attempts WHERE endpoint_id = $1", [endpoint.id]);
    expect(attempts.rowCount).toBe(0);
    const events = await fixture.db.pool.query("SELECT id FROM events WHERE account_id = $1", [caller.account_id]);
    expect(events.rows).toEqual([{ id: pendingKey }]);
  });
});
