import { connectBus, type Bus, type RpcHandlerMap, type Subscription } from "@dormant/bus";
import {
  NOTIFIER_RPC_CATALOG,
  PLATFORM_TOPOLOGY,
  type SandboxWebhookEvent,
  WEBHOOK_EVENT_ID_PATTERN,
  type WebhookEndpoint,
} from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, type TestVhost, waitFor } from "@dormant/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "../test-support/captured-logs.ts";
import { accountsBody, ct600Body, get, idempotencyKey, submit } from "../test-support/requests.ts";
import { createTestGateway, TEST_PEPPER, type TestGateway } from "../test-support/test-gateway.ts";
import { createSandboxBackend } from "./sandbox-backend.ts";
import { SANDBOX_EVENT_MESSAGES, sandboxEventPublisher } from "./sandbox-events.ts";
import { FAILED_LOOKUP_TTL_SECONDS, type TestEndpointLookup } from "./test-endpoints.ts";

/** The notifier's two RPCs this test answers in its place: the endpoints of an account, and creating one. */
const NOTIFIER_RPCS = {
  "notifier.list_endpoints": NOTIFIER_RPC_CATALOG["notifier.list_endpoints"],
  "notifier.create_endpoint": NOTIFIER_RPC_CATALOG["notifier.create_endpoint"],
} as const;

const endpoint = (n: number): WebhookEndpoint => ({
  id: `we_${String(n).padStart(16, "0")}`,
  url: "https://agent.example.com/hooks",
  events: ["filing.accepted"],
  status: "enabled",
  created_at: new Date().toISOString(),
});

/** Every account may have endpoints: the publisher's own behaviour, apart from the lookup. */
const ALWAYS: TestEndpointLookup = { mayHaveTestEndpoints: async () => true, testEndpointCreated: async () => {} };

describe("sandbox webhook events (notifier.sandbox_event, consumed from notifier.events on a test vhost)", () => {
  let vhost: TestVhost;
  let gw: TestGateway;
  let consumer: Bus<typeof SANDBOX_EVENT_MESSAGES, typeof NOTIFIER_RPCS>;
  let consuming: Subscription;
  let serving: Subscription;
  const events: Array<{ payload: SandboxWebhookEvent; messageId: string; requestId: string }> = [];
  /** The accounts the stand-in notifier has test endpoints for, and the lookups it was asked. */
  const withTestEndpoints = new Set<string>();
  const lookups: string[] = [];
  const notifierHandlers: RpcHandlerMap<typeof NOTIFIER_RPCS, "notifier.rpc"> = {
    "notifier.list_endpoints": async (payload) => {
      lookups.push(payload.caller.account_id);
      const has = payload.caller.mode === "test" && withTestEndpoints.has(payload.caller.account_id);
      return {
        endpoints: has ? [endpoint(1)] : [],
        pagination: { limit: payload.limit, offset: payload.offset, total: has ? 1 : 0, has_more: false },
      };
    },
    "notifier.create_endpoint": async (payload) => {
      if (payload.caller.mode === "test") withTestEndpoints.add(payload.caller.account_id);
      return { ...endpoint(2), secret: `whsec_${"A".repeat(43)}=` };
    },
  };

  /** Waits for `count` events more than `before`, and answers the new ones. */
  const newEvents = (before: number, count: number) =>
    waitFor(() => events.length >= before + count && events.slice(before), { timeoutMs: 5_000, what: `${count} sandbox event(s)` });

  beforeAll(async () => {
    vhost = await createTestVhost("gw_sandbox_events");
    gw = await createTestGateway({ label: "sandbox_events", amqpUrl: vhost.url });
    consumer = await connectBus({
      url: vhost.url,
      service: "notifier-test",
      topology: PLATFORM_TOPOLOGY,
      messages: SANDBOX_EVENT_MESSAGES,
      rpc: NOTIFIER_RPCS,
      logger: createLogger({ service: "notifier-test", level: "silent" }),
    });
    consuming = await consumer.consume("notifier.events", {
      "notifier.sandbox_event": async (message) => {
        events.push({ payload: message.payload, messageId: message.message_id, requestId: message.request_id });
      },
    });
    serving = await consumer.rpcServe("notifier.rpc", notifierHandlers);
    withTestEndpoints.add(gw.account.accountId);
  });
  afterAll(async () => {
    await serving?.stop();
    await consuming?.stop();
    await consumer?.close();
    await gw?.close();
    await vhost?.delete();
  });

  it("publishes filing.accepted then filing.documents_ready per accepted test-key submit: data is the poll's answer and its client_reference", async () => {
    const before = events.length;
    const started = Date.now();
    const response = await submit(gw.app, "ct600", gw.account.testKey, ct600Body({ client_reference: "batch-7" }));
    expect(response.status).toBe(202);
    const filingId: string = response.body.data.filing_id;
    const [accepted, documentsReady] = await newEvents(before, 2);
    const poll = await get(gw.app, `/filings/${filingId}`, gw.account.testKey);
    // Sandbox reads cannot show the client_reference (nothing is stored); the events carry it, as live events do.
    expect(poll.body.data).not.toHaveProperty("client_reference");
    const data = { ...poll.body.data, client_reference: "batch-7" };
    for (const [event, type] of [
      [accepted, "filing.accepted"],
      [documentsReady, "filing.documents_ready"],
    ] as const) {
      expect(event?.payload).toEqual({
        account_id: gw.account.accountId,
        event: { id: expect.stringMatching(/^evt_test_[0-9a-f]{32}$/), type, created_at: expect.any(String), data },
      });
      expect(event?.payload.event.id).toMatch(WEBHOOK_EVENT_ID_PATTERN);
      expect(event?.requestId).toBe(response.headers["x-request-id"]);
      const createdAt = Date.parse(event?.payload.event.created_at ?? "");
      expect(createdAt).toBeGreaterThanOrEqual(started - 1000);
      expect(createdAt).toBeLessThanOrEqual(Date.now());
    }
    expect(documentsReady?.payload.event.id).not.toBe(accepted?.payload.event.id);
    // Nothing else arrives for that submit.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.length).toBe(before + 2);
  });

  it("gives the same submit (same Idempotency-Key and body) the same event id, another submit another id", async () => {
    const before = events.length;
    const key = idempotencyKey();
    const first = await submit(gw.app, "ct600", gw.account.testKey, ct600Body(), key);
    const again = await submit(gw.app, "ct600", gw.account.testKey, ct600Body(), key);
    const other = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    expect(again.body.data.filing_id).toBe(first.body.data.filing_id);
    expect(other.body.data.filing_id).not.toBe(first.body.data.filing_id);
    // Two events per accepted submit: filing.accepted, filing.documents_ready.
    const [a, aDocuments, b, bDocuments, c] = await newEvents(before, 6);
    expect(a?.payload.event.id).toBe(b?.payload.event.id);
    expect(aDocuments?.payload.event.id).toBe(bDocuments?.payload.event.id);
    expect(a?.payload.event.data).toEqual(b?.payload.event.data);
    expect(c?.payload.event.id).not.toBe(a?.payload.event.id);
    // Each publish is a message of its own; the event id is what receivers dedupe on.
    expect(a?.messageId).not.toBe(b?.messageId);
  });

  it("types the event by the sandbox scenario: rejected and error outcomes, accounts filings too", async () => {
    const before = events.length;
    const cases = [
      { type: "ct600" as const, body: ct600Body({ company_number: "00000002" }), event: "filing.rejected", code: "TAX_UTR_MISMATCH" },
      { type: "accounts" as const, body: accountsBody({ company_number: "00000004" }), event: "filing.errored", code: "GATEWAY_TIMEOUT" },
      { type: "accounts" as const, body: accountsBody({ company_number: "SC000001" }), event: "filing.accepted", code: undefined },
    ];
    const filingIds: string[] = [];
    for (const { type, body } of cases) {
      const response = await submit(gw.app, type, gw.account.testKey, body);
      expect(response.status).toBe(202);
      filingIds.push(response.body.data.filing_id);
    }
    // The accepted accounts filing has filing.documents_ready after its outcome; the others only their outcome.
    const received = await newEvents(before, cases.length + 1);
    expect(received.map((event) => event.payload.event.type)).toEqual([
      "filing.rejected",
      "filing.errored",
      "filing.accepted",
      "filing.documents_ready",
    ]);
    cases.forEach((expected, index) => {
      const event = received[index]?.payload.event;
      expect(event?.type).toBe(expected.event);
      expect(event?.data).toMatchObject({ filing_id: filingIds[index], sandbox: true });
      expect((event?.data as { error?: { code: string } } | undefined)?.error?.code).toBe(expected.code);
    });
  });

  it("publishes nothing for a live key's submit", async () => {
    const before = events.length;
    // Nothing serves filing.rpc on this vhost: the live submit is a 503, and no event.
    const live = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body());
    expect(live.status).toBe(503);
    // A test submit after it: its event is the only one (one publishing channel keeps the order).
    const sandbox = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    const [event] = await newEvents(before, 2);
    expect(event?.payload.event.data).toMatchObject({ filing_id: sandbox.body.data.filing_id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.length).toBe(before + 2);
  });

  it("still answers the submit when the event cannot be published, with a warning in the log", async () => {
    const logs = captureLogs();
    const closed = await connectBus({
      url: vhost.url,
      service: "gateway-closed",
      topology: PLATFORM_TOPOLOGY,
      messages: SANDBOX_EVENT_MESSAGES,
      rpc: {},
      logger: createLogger({ service: "gateway-closed", level: "silent" }),
    });
    await closed.close();
    const backend = createSandboxBackend({
      secret: TEST_PEPPER,
      validator: { validateCt600: () => Promise.reject(new Error("unused")), validateAccounts: () => Promise.reject(new Error("unused")) },
      publishEvent: sandboxEventPublisher({ bus: closed, endpoints: ALWAYS, logger: logs.logger }),
    });
    const caller = { accountId: gw.account.accountId, keyId: "key", mode: "test" as const, requestId: "req" };
    const answer = await backend.submitCt600(caller, { idempotencyKey: idempotencyKey(), body: ct600Body() as never });
    expect(answer).toMatchObject({ status: "submitted", sandbox: true });
    expect(logs.text()).toContain("sandbox webhook event not published");
    expect(logs.text()).toMatch(/"level":"?(40|warn)"?/);
  });
  it("publishes nothing for an account without test endpoints, asking the notifier once per minute, not per submit", async () => {
    const quiet = await gw.createAccount();
    const lookupsBefore = lookups.filter((id) => id === quiet.accountId).length;
    const before = events.length;
    for (let i = 0; i < 3; i++) expect((await submit(gw.app, "ct600", quiet.testKey, ct600Body())).status).toBe(202);
    // A submit of an account with endpoints after them: its events are the only ones.
    const loud = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    const [event] = await newEvents(before, 2);
    expect(event?.payload.event.data).toMatchObject({ filing_id: loud.body.data.filing_id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.length).toBe(before + 2);
    expect(lookups.filter((id) => id === quiet.accountId).length - lookupsBefore).toBe(1);
    // The answer is kept in Redis for every replica, expiring in at most a minute.
    const ttl = await gw.redis.ttl(`${gw.redisPrefix}sandbox:test-endpoints:${quiet.accountId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it("publishes the next submit's event as soon as a test endpoint is created through the gateway, though 'none' was cached", async () => {
    const account = await gw.createAccount();
    const before = events.length;
    expect((await submit(gw.app, "ct600", account.testKey, ct600Body())).status).toBe(202);
    expect(await gw.redis.get(`${gw.redisPrefix}sandbox:test-endpoints:${account.accountId}`)).toBe("0");
    const created = await request(gw.app)
      .post("/api/v1/webhook_endpoints")
      .set("X-API-Key", account.testKey)
      .send({ url: "https://agent.example.com/hooks" });
    expect(created.status).toBe(201);
    const after = await submit(gw.app, "ct600", account.testKey, ct600Body());
    const [event] = await newEvents(before, 1);
    expect(event?.payload).toMatchObject({ account_id: account.accountId, event: { data: { filing_id: after.body.data.filing_id } } });
  });

  it("a live endpoint does not count: the test key's submits stay silent", async () => {
    const account = await gw.createAccount();
    const created = await request(gw.app)
      .post("/api/v1/webhook_endpoints")
      .set("X-API-Key", account.liveKey)
      .send({ url: "https://agent.example.com/hooks" });
    expect(created.status).toBe(201);
    const before = events.length;
    expect((await submit(gw.app, "ct600", account.testKey, ct600Body())).status).toBe(202);
    const loud = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    const [event] = await newEvents(before, 2);
    expect(event?.payload.event.data).toMatchObject({ filing_id: loud.body.data.filing_id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.length).toBe(before + 2);
  });
  it("publishes when the notifier cannot be asked (the notifier decides), and does not ask again for 10 s", async () => {
    const account = await gw.createAccount();
    await serving.stop();
    try {
      const before = events.length;
      const started = Date.now();
      const answer = await submit(gw.app, "ct600", account.testKey, ct600Body());
      expect(answer.status).toBe(202);
      // The lookup waits at most a second for the notifier.
      expect(Date.now() - started).toBeLessThan(3_000);
      const [event] = await newEvents(before, 1);
      expect(event?.payload).toMatchObject({ account_id: account.accountId, event: { data: { filing_id: answer.body.data.filing_id } } });
      const cached = `${gw.redisPrefix}sandbox:test-endpoints:${account.accountId}`;
      expect(await gw.redis.get(cached)).toBe("1");
      expect(await gw.redis.ttl(cached)).toBeLessThanOrEqual(FAILED_LOOKUP_TTL_SECONDS);
      // The next submit does not wait for the notifier again.
      const again = Date.now();
      expect((await submit(gw.app, "ct600", account.testKey, ct600Body())).status).toBe(202);
      expect(Date.now() - again).toBeLessThan(500);
    } finally {
      serving = await consumer.rpcServe("notifier.rpc", notifierHandlers);
    }
  });
  it("keeps each answer in the process for a few seconds: a Redis key changed behind its back is not read again", async () => {
    const account = await gw.createAccount();
    const cached = `${gw.redisPrefix}sandbox:test-endpoints:${account.accountId}`;
    expect((await submit(gw.app, "ct600", account.testKey, ct600Body())).status).toBe(202);
    expect(await gw.redis.get(cached)).toBe("0");
    // Written without the creations channel (nothing real does this): the process keeps its "no".
    await gw.redis.set(cached, "1", "EX", 60);
    const before = events.length;
    expect((await submit(gw.app, "ct600", account.testKey, ct600Body())).status).toBe(202);
    const loud = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    const [event] = await newEvents(before, 1);
    expect(event?.payload.event.data).toMatchObject({ filing_id: loud.body.data.filing_id });
  });

  it("hears a test endpoint created through another gateway replica before its next submit", async () => {
    const account = await gw.createAccount();
    const other = await gw.replica();
    // This replica has "no" in Redis and in its own memory.
    expect((await submit(gw.app, "ct600", account.testKey, ct600Body())).status).toBe(202);
    const created = await request(other)
      .post("/api/v1/webhook_endpoints")
      .set("X-API-Key", account.testKey)
      .send({ url: "https://agent.example.com/hooks" });
    expect(created.status).toBe(201);
    const before = events.length;
    const after = await submit(gw.app, "ct600", account.testKey, ct600Body());
    const [event] = await newEvents(before, 1);
    expect(event?.payload).toMatchObject({ account_id: account.accountId, event: { data: { filing_id: after.body.data.filing_id } } });
  });
});
