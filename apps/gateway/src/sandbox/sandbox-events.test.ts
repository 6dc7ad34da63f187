import { connectBus, type Bus, type Subscription } from "@dormant/bus";
import { PLATFORM_TOPOLOGY, type SandboxWebhookEvent, WEBHOOK_EVENT_ID_PATTERN } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, type TestVhost, waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "../test-support/captured-logs.ts";
import { accountsBody, ct600Body, get, idempotencyKey, submit } from "../test-support/requests.ts";
import { createTestGateway, TEST_PEPPER, type TestGateway } from "../test-support/test-gateway.ts";
import { createSandboxBackend } from "./sandbox-backend.ts";
import { SANDBOX_EVENT_MESSAGES, sandboxEventPublisher } from "./sandbox-events.ts";

describe("sandbox webhook events (notifier.sandbox_event, consumed from notifier.events on a test vhost)", () => {
  let vhost: TestVhost;
  let gw: TestGateway;
  let consumer: Bus<typeof SANDBOX_EVENT_MESSAGES, Record<never, never>>;
  let consuming: Subscription;
  const events: Array<{ payload: SandboxWebhookEvent; messageId: string; requestId: string }> = [];

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
      rpc: {},
      logger: createLogger({ service: "notifier-test", level: "silent" }),
    });
    consuming = await consumer.consume("notifier.events", {
      "notifier.sandbox_event": async (message) => {
        events.push({ payload: message.payload, messageId: message.message_id, requestId: message.request_id });
      },
    });
  });
  afterAll(async () => {
    await consuming?.stop();
    await consumer?.close();
    await gw?.close();
    await vhost?.delete();
  });

  it("publishes exactly one filing.accepted per test-key submit: data is the poll's answer, the id derived from the filing", async () => {
    const before = events.length;
    const started = Date.now();
    const response = await submit(gw.app, "ct600", gw.account.testKey, ct600Body({ client_reference: "batch-7" }));
    expect(response.status).toBe(202);
    const filingId: string = response.body.data.filing_id;
    const [event] = await newEvents(before, 1);
    const poll = await get(gw.app, `/filings/${filingId}`, gw.account.testKey);
    expect(event?.payload).toEqual({
      account_id: gw.account.accountId,
      event: {
        id: expect.stringMatching(/^evt_test_[0-9a-f]{32}$/),
        type: "filing.accepted",
        created_at: expect.any(String),
        data: poll.body.data,
      },
    });
    expect(event?.payload.event.id).toMatch(WEBHOOK_EVENT_ID_PATTERN);
    expect(event?.requestId).toBe(response.headers["x-request-id"]);
    const createdAt = Date.parse(event?.payload.event.created_at ?? "");
    expect(createdAt).toBeGreaterThanOrEqual(started - 1000);
    expect(createdAt).toBeLessThanOrEqual(Date.now());
    // Nothing else arrives for that submit.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.length).toBe(before + 1);
  });

  it("gives the same submit (same Idempotency-Key and body) the same event id, another submit another id", async () => {
    const before = events.length;
    const key = idempotencyKey();
    const first = await submit(gw.app, "ct600", gw.account.testKey, ct600Body(), key);
    const again = await submit(gw.app, "ct600", gw.account.testKey, ct600Body(), key);
    const other = await submit(gw.app, "ct600", gw.account.testKey, ct600Body());
    expect(again.body.data.filing_id).toBe(first.body.data.filing_id);
    expect(other.body.data.filing_id).not.toBe(first.body.data.filing_id);
    const [a, b, c] = await newEvents(before, 3);
    expect(a?.payload.event.id).toBe(b?.payload.event.id);
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
    const received = await newEvents(before, cases.length);
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
    const [event] = await newEvents(before, 1);
    expect(event?.payload.event.data).toMatchObject({ filing_id: sandbox.body.data.filing_id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.length).toBe(before + 1);
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
      publishEvent: sandboxEventPublisher({ bus: closed, logger: logs.logger }),
    });
    const caller = { accountId: gw.account.accountId, keyId: "key", mode: "test" as const, requestId: "req" };
    const answer = await backend.submitCt600(caller, { idempotencyKey: idempotencyKey(), body: ct600Body() as never });
    expect(answer).toMatchObject({ status: "submitted", sandbox: true });
    expect(logs.text()).toContain("sandbox webhook event not published");
    expect(logs.text()).toMatch(/"level":"?(40|warn)"?/);
  });
});
