import { isAppError, MAX_WEBHOOK_ENDPOINTS_PER_MODE, WEBHOOK_EVENT_TYPES, WEBHOOK_SECRET_PATTERN } from "@dormant/contracts";
import { rejectionOf, waitFor } from "@dormant/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { type Listener, startListener } from "../test-support/listener.ts";
import { useNotifier } from "../test-support/notifier-fixture.ts";

// The endpoints RPCs over the real bus, as the gateway calls them.
describe("notifier.rpc: webhook endpoints", () => {
  const fixture = useNotifier("rpc");
  const listeners: Listener[] = [];
  afterAll(async () => {
    await Promise.all(listeners.map((listener) => listener.close()));
  });
  const rpc = () => fixture.platform;

  it("creates an endpoint with a whsec_ secret (all events by default), lists, gets and deletes it", async () => {
    const caller = fixture.caller();
    const created = await rpc().rpcCall("notifier.rpc", "notifier.create_endpoint", {
      caller,
      endpoint: { url: "http://127.0.0.1:9/hooks", description: "my agent" },
    });
    expect(created).toMatchObject({ url: "http://127.0.0.1:9/hooks", status: "enabled", description: "my agent" });
    expect(created.id).toMatch(/^we_[A-Za-z0-9]{22}$/);
    expect(created.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(created.events).toEqual([...WEBHOOK_EVENT_TYPES]);

    const second = await rpc().rpcCall("notifier.rpc", "notifier.create_endpoint", {
      caller,
      endpoint: { url: "http://127.0.0.1:9/other", events: ["filing.rejected"] },
    });
    const list = await rpc().rpcCall("notifier.rpc", "notifier.list_endpoints", { caller, limit: 1, offset: 0 });
    expect(list.endpoints.map((endpoint) => endpoint.id)).toEqual([second.id]);
    expect(list.pagination).toEqual({ total: 2, limit: 1, offset: 0, has_more: true });
    expect(JSON.stringify(list)).not.toContain("whsec_");

    const got = await rpc().rpcCall("notifier.rpc", "notifier.get_endpoint", { caller, endpoint_id: created.id });
    expect(got).not.toHaveProperty("secret");
    expect(got.id).toBe(created.id);

    expect(await rpc().rpcCall("notifier.rpc", "notifier.delete_endpoint", { caller, endpoint_id: created.id })).toEqual({
      id: created.id,
      deleted: true,
    });
    const gone = await rejectionOf(rpc().rpcCall("notifier.rpc", "notifier.get_endpoint", { caller, endpoint_id: created.id }));
    expect(isAppError(gone) && gone.code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    const after = await rpc().rpcCall("notifier.rpc", "notifier.list_endpoints", { caller, limit: 20, offset: 0 });
    expect(after.endpoints.map((endpoint) => endpoint.id)).toEqual([second.id]);
  });

  it("stores the secret sealed, never in clear", async () => {
    const caller = fixture.caller();
    const created = await rpc().rpcCall("notifier.rpc", "notifier.create_endpoint", { caller, endpoint: { url: "http://127.0.0.1:9/" } });
    const row = await fixture.db.pool.query("SELECT * FROM endpoints WHERE id = $1", [created.id]);
    expect(JSON.stringify(row.rows[0])).not.toContain(created.secret.slice("whsec_".length, 20));
    expect(row.rows[0].secret_sealed).toMatchObject({ alg: "A256GCM" });
  });

  it("hides an endpoint from another account and from the other mode of the same account", async () => {
    const owner = fixture.caller("live");
    const created = await rpc().rpcCall("notifier.rpc", "notifier.create_endpoint", {
      caller: owner,
      endpoint: { url: "http://127.0.0.1:9/" },
    });
    const strangers = [fixture.caller("live"), { ...owner, mode: "test" as const }];
    for (const caller of strangers) {
      for (const type of ["notifier.get_endpoint", "notifier.delete_endpoint", "notifier.rotate_secret", "notifier.send_test"] as const) {
        const error = await rejectionOf(rpc().rpcCall("notifier.rpc", type, { caller, endpoint_id: created.id }));
        expect(isAppError(error) && error.code, `${type} as ${caller.account_id}/${caller.mode}`).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
      }
      const deliveries = await rejectionOf(
        rpc().rpcCall("notifier.rpc", "notifier.list_deliveries", { caller, endpoint_id: created.id, limit: 20, offset: 0 }),
      );
      expect(isAppError(deliveries) && deliveries.code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
      const list = await rpc().rpcCall("notifier.rpc", "notifier.list_endpoints", { caller, limit: 20, offset: 0 });
      expect(list.endpoints.map((endpoint) => endpoint.id)).not.toContain(created.id);
    }
  });

  it("caps the endpoints per account and mode, atomically under concurrent creates (VALIDATION_ERROR, field url)", async () => {
    const caller = fixture.caller();
    const create = (n: number, who = caller) =>
      rpc().rpcCall("notifier.rpc", "notifier.create_endpoint", { caller: who, endpoint: { url: `http://127.0.0.1:9/hooks/${n}` } });
    // Twice the cap at once: exactly the cap succeed, whatever the interleaving.
    const results = await Promise.allSettled(Array.from({ length: MAX_WEBHOOK_ENDPOINTS_PER_MODE * 2 }, (_, n) => create(n)));
    const created = results.filter((result) => result.status === "fulfilled");
    expect(created).toHaveLength(MAX_WEBHOOK_ENDPOINTS_PER_MODE);
    for (const result of results) {
      if (result.status === "fulfilled") continue;
      expect(isAppError(result.reason) && result.reason.code).toBe("VALIDATION_ERROR");
      expect(isAppError(result.reason) && result.reason.details?.[0]).toMatchObject({ field: "url", message: /limit reached/ });
    }
    const listed = await rpc().rpcCall("notifier.rpc", "notifier.list_endpoints", { caller, limit: 100, offset: 0 });
    expect(listed.pagination.total).toBe(MAX_WEBHOOK_ENDPOINTS_PER_MODE);

    // The other mode has its own count; a deleted endpoint frees its place.
    await expect(create(100, { ...caller, mode: "test" })).resolves.toMatchObject({ status: "enabled" });
    const first = created[0];
    if (first?.status !== "fulfilled") throw new Error("unreachable");
    await rpc().rpcCall("notifier.rpc", "notifier.delete_endpoint", { caller, endpoint_id: first.value.id });
    await expect(create(101)).resolves.toMatchObject({ status: "enabled" });
    expect(isAppError(await rejectionOf(create(102)))).toBe(true);
  });

  it("refuses link-local and cloud metadata URLs even with private URLs allowed (400, field url)", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data", "http://[fd00:ec2::254]/", "http://[::ffff:169.254.169.254]/"]) {
      const error = await rejectionOf(
        rpc().rpcCall("notifier.rpc", "notifier.create_endpoint", { caller: fixture.caller(), endpoint: { url } }),
      );
      expect(isAppError(error) && error.code, url).toBe("VALIDATION_ERROR");
      expect(isAppError(error) && error.details?.[0]?.field).toBe("url");
      expect(isAppError(error) && error.details?.[0]?.message).toMatch(/link-local|metadata/);
    }
  });

  it("sends a webhook.test event now, signed, and lists the attempt; a rotation keeps the old secret signing for a while", async () => {
    const listener = await startListener();
    listeners.push(listener);
    const caller = fixture.caller("test");
    const created = await rpc().rpcCall("notifier.rpc", "notifier.create_endpoint", { caller, endpoint: { url: listener.url } });
    const sent = await rpc().rpcCall("notifier.rpc", "notifier.send_test", { caller, endpoint_id: created.id });
    expect(sent).toMatchObject({ endpoint_id: created.id, type: "webhook.test" });
    await waitFor(() => listener.received.length === 1, { what: "the test event" });
    const [request] = listener.received;
    if (!request) throw new Error("no request");
    expect(request.headers["webhook-id"]).toBe(sent.event_id);
    expect(request.headers["user-agent"]).toBe("dormant-notifier/1.0");
    expect(request.headers["content-type"]).toBe("application/json");
    const payload = new Webhook(created.secret).verify(request.body, request.headers as Record<string, string>);
    expect(payload).toMatchObject({ id: sent.event_id, type: "webhook.test", data: { endpoint_id: created.id } });

    const deliveries = await waitFor(async () => {
      const page = await rpc().rpcCall("notifier.rpc", "notifier.list_deliveries", {
        caller,
        endpoint_id: created.id,
        limit: 20,
        offset: 0,
      });
      return page.deliveries.length === 1 ? page : undefined;
    });
    expect(deliveries.deliveries[0]).toMatchObject({
      event_id: sent.event_id,
      event_type: "webhook.test",
      attempt: 1,
      outcome: "delivered",
      status_code: 200,
    });
    expect(deliveries.deliveries[0]).not.toHaveProperty("next_retry_at");

    const rotated = await rpc().rpcCall("notifier.rpc", "notifier.rotate_secret", { caller, endpoint_id: created.id });
    expect(rotated.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(rotated.secret).not.toBe(created.secret);
    await rpc().rpcCall("notifier.rpc", "notifier.send_test", { caller, endpoint_id: created.id });
    await waitFor(() => listener.received.length === 2, { what: "the second test event" });
    const second = listener.received[1];
    if (!second) throw new Error("no request");
    const headers = second.headers as Record<string, string>;
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(second.body, headers)).toMatchObject({ type: "webhook.test" });
    expect(new Webhook(created.secret).verify(second.body, headers)).toMatchObject({ type: "webhook.test" });
  });
});

describe("notifier.rpc with private URLs not allowed", () => {
  const fixture = useNotifier("rpc_strict", { WEBHOOK_ALLOW_PRIVATE_URLS: "false" }, { captureLogs: true });

  it("refuses loopback and private addresses with the reason", async () => {
    for (const url of ["http://127.0.0.1:8080/hooks", "http://localhost/hooks", "http://10.1.2.3/", "http://[::1]/"]) {
      const error = await rejectionOf(
        fixture.platform.rpcCall("notifier.rpc", "notifier.create_endpoint", { caller: fixture.caller(), endpoint: { url } }),
      );
      expect(isAppError(error) && error.code, url).toBe("VALIDATION_ERROR");
      expect(isAppError(error) && error.details).toEqual([{ field: "url", message: expect.stringMatching(/loopback|private/) }]);
    }
  });

  it("says why a name is refused in general terms; the address it resolved to is only in the notifier's log", async () => {
    const caller = fixture.caller();
    const error = await rejectionOf(
      fixture.platform.rpcCall("notifier.rpc", "notifier.create_endpoint", { caller, endpoint: { url: "http://localhost:9/hooks" } }),
    );
    expect(isAppError(error) && error.code).toBe("VALIDATION_ERROR");
    const said = JSON.stringify(isAppError(error) ? { message: error.message, details: error.details } : error);
    expect(said).toContain("non-public address");
    expect(said).not.toMatch(/127\.0\.0\.1|::1/);
    const logged = fixture.logs.filter((line) => line.includes("webhook URL refused"));
    expect(logged.join("\n")).toMatch(/localhost resolves to (127\.0\.0\.1|::1): a loopback address/);
    expect(logged.join("\n")).toContain(caller.account_id);
  });
});
