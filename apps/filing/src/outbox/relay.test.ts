import { connectBus } from "@dormant/bus";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, createMetricsRegistry } from "@dormant/service-kit";
import { recordSpansInMemory, runAsCallerOf } from "@dormant/service-kit/tracing";
import { createTestVhost, waitFor, type TestDatabase, type TestVhost } from "@dormant/testing";
import { connect, type ChannelModel } from "amqplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FILING_SERVICE_MESSAGES, FILING_SERVICE_RPC, type FilingBus } from "../bus-catalog.ts";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { createFilingMetrics } from "../metrics.ts";
import { enqueueEvent } from "./enqueue.ts";
import { OutboxRelay } from "./relay.ts";

const logger = createLogger({ service: "filing-test", level: "silent" });
let database: TestDatabase;
let db: FilingDb;
let vhost: TestVhost;
let bus: FilingBus;
let amqp: ChannelModel;
const received: Array<{ messageId: string; type: string; requestId: string; traceparent: string; payload: { filing_id: string } }> = [];
recordSpansInMemory("filing-test");

beforeAll(async () => {
  [database, vhost] = await Promise.all([createFilingTestDatabase("outbox"), createTestVhost("filing-outbox")]);
  db = createFilingDb(database.url);
  bus = await connectBus({
    url: vhost.url,
    service: "filing",
    topology: PLATFORM_TOPOLOGY,
    messages: FILING_SERVICE_MESSAGES,
    rpc: FILING_SERVICE_RPC,
    logger,
  });
  amqp = await connect(vhost.url);
  const channel = await amqp.createChannel();
  const { queue } = await channel.assertQueue("", { exclusive: true });
  await channel.bindQueue(queue, "filing.events", "filing.*");
  await channel.consume(
    queue,
    (message) => {
      if (!message) return;
      const headers = message.properties.headers as Record<string, string>;
      received.push({
        messageId: String(message.properties.messageId),
        type: headers.type!,
        requestId: headers.request_id!,
        traceparent: headers.traceparent!,
        payload: JSON.parse(message.content.toString("utf8")),
      });
    },
    { noAck: true },
  );
});
afterAll(async () => {
  await amqp?.close();
  await bus?.close();
  await db?.$disconnect();
  await vhost?.delete();
  await database?.drop();
});
beforeEach(async () => {
  received.length = 0;
  await db.outboxMessage.deleteMany();
});

function relay(withBus: Pick<FilingBus, "publish"> = bus, batchSize = 100, options: { intervalMs?: number; claimSeconds?: number } = {}) {
  return new OutboxRelay({
    db,
    bus: withBus,
    logger,
    metrics: createFilingMetrics(createMetricsRegistry("filing")),
    intervalMs: options.intervalMs ?? 50,
    batchSize,
    ...(options.claimSeconds ? { claimSeconds: options.claimSeconds } : {}),
  });
}

const event = (n: number) => ({
  filing_id: `fil_outbox${n}`,
  account_id: "acc_1",
  filing_type: "ct600" as const,
  company_number: "00000001",
  occurred_at: new Date().toISOString(),
});

async function write(count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let n = from; n < from + count; n++) {
    ids.push(
      await db.$transaction((tx) =>
        n % 2 === 0
          ? enqueueEvent(tx, "filing.accepted", { ...event(n), fee_pence: 2000 }, `req-${n}`)
          : enqueueEvent(tx, "filing.errored", { ...event(n), error: { code: "INTERNAL_ERROR", message: "x" } }, `req-${n}`),
      ),
    );
  }
  return ids;
}

describe("outbox relay", () => {
  it("publishes an event in the trace of the change that wrote it; one written outside a trace starts its own", async () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const [traced] = await runAsCallerOf(traceparent, () => write(1));
    const [untraced] = await write(1, 1);
    const stored = await db.outboxMessage.findMany({ select: { messageId: true, traceparent: true } });
    expect(stored.find((row) => row.messageId === traced)?.traceparent).toBe(traceparent);
    expect(stored.find((row) => row.messageId === untraced)?.traceparent).toBeNull();

    expect(await relay().relayOnce()).toBe(2);
    await waitFor(() => received.length >= 2, { what: "two events" });
    expect(received.find((m) => m.messageId === traced)?.traceparent).toBe(traceparent);
    const fresh = received.find((m) => m.messageId === untraced)?.traceparent ?? "";
    expect(fresh).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(fresh.split("-")[1]).not.toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("publishes exactly the committed events, with their own message and request ids, and marks them", async () => {
    const ids = await write(3);
    await db
      .$transaction(async (tx) => {
        await enqueueEvent(tx, "filing.accepted", { ...event(99), fee_pence: 2000 }, "rolled-back");
        throw new Error("the state change failed");
      })
      .catch(() => undefined);

    expect(await relay().relayOnce()).toBe(3);
    await waitFor(() => received.length >= 3, { what: "three events" });
    expect(received.map((m) => m.messageId).sort()).toEqual([...ids].sort());
    expect(received.find((m) => m.payload.filing_id === "fil_outbox0")).toMatchObject({ type: "filing.accepted", requestId: "req-0" });
    expect(received.find((m) => m.payload.filing_id === "fil_outbox1")).toMatchObject({ type: "filing.errored", requestId: "req-1" });
    expect(await db.outboxMessage.count({ where: { publishedAt: null } })).toBe(0);

    expect(await relay().relayOnce()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toHaveLength(3);
  });

  it("lets several replicas relay side by side without publishing a row twice", async () => {
    await write(60);
    const replicas = [relay(bus, 7), relay(bus, 7), relay(bus, 7)];
    const drain = async (r: OutboxRelay) => {
      while ((await r.relayOnce()) > 0);
    };
    await Promise.all(replicas.map(drain));
    await waitFor(() => received.length >= 60, { what: "sixty events" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(new Set(received.map((m) => m.messageId)).size).toBe(60);
    expect(received).toHaveLength(60);
  });

  it("keeps what it could not publish, and a later relay (after a restart) publishes it", async () => {
    const [id] = await write(1);
    const deadBus = await connectBus({
      url: vhost.url,
      service: "filing",
      topology: PLATFORM_TOPOLOGY,
      messages: FILING_SERVICE_MESSAGES,
      rpc: FILING_SERVICE_RPC,
      logger,
      publishTimeoutMs: 200,
    });
    await deadBus.close();
    expect(await relay(deadBus).relayOnce()).toBe(0);
    const row = await db.outboxMessage.findFirstOrThrow({ where: { messageId: id! } });
    expect(row).toMatchObject({ publishedAt: null, attempts: 1, lastError: expect.any(String) });

    const running = relay();
    running.start();
    try {
      await waitFor(() => received.some((m) => m.messageId === id), { what: "the event after the restart" });
    } finally {
      await running.stop();
    }
    expect((await db.outboxMessage.findFirstOrThrow({ where: { messageId: id! } })).publishedAt).not.toBeNull();
  });

  it("relays as soon as it is woken, and flushes what is left when asked", async () => {
    const running = relay();
    const slow = new OutboxRelay({
      db,
      bus,
      logger,
      metrics: createFilingMetrics(createMetricsRegistry("filing")),
      intervalMs: 60_000,
      batchSize: 100,
    });
    slow.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [id] = await write(1);
      slow.wake();
      await waitFor(() => received.some((m) => m.messageId === id), { timeoutMs: 2000, what: "the woken relay" });
    } finally {
      await slow.stop();
    }
    await write(5, 10);
    await running.flush(5000);
    expect(await running.pending()).toBe(0);
  });

  it("publishes each event exactly once while commits keep coming, with two replicas woken by them", async () => {
    const replicas = [relay(bus, 4, { intervalMs: 60_000 }), relay(bus, 4, { intervalMs: 60_000 })];
    for (const r of replicas) r.start();
    try {
      const ids = (
        await Promise.all(
          Array.from({ length: 10 }, async (_, writer) => {
            const mine: string[] = [];
            for (let n = 0; n < 5; n++) {
              mine.push(...(await write(1, 100 + writer * 10 + n)));
              for (const r of replicas) r.wake();
            }
            return mine;
          }),
        )
      ).flat();
      await waitFor(() => received.length >= ids.length, { timeoutMs: 10_000, what: "every event" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received.map((m) => m.messageId).sort()).toEqual([...ids].sort());
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
    expect(await db.outboxMessage.count({ where: { publishedAt: null } })).toBe(0);
    expect(await db.outboxMessage.count({ where: { claimedUntil: { not: null } } })).toBe(0);
    expect(await db.outboxMessage.count({ where: { attempts: { not: 1 } } })).toBe(0);
  });

  it("takes a row again once the claim of a relay that died holding it has lapsed", async () => {
    const [id] = await write(1);
    // A relay claimed it (for one second) and died before publishing or marking it.
    await db.$executeRaw`UPDATE outbox SET claimed_until = now() + interval '1 second', attempts = attempts + 1`;
    expect(await relay().relayOnce()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await relay().relayOnce()).toBe(1);
    await waitFor(() => received.some((m) => m.messageId === id), { what: "the event" });
    expect(await db.outboxMessage.findFirstOrThrow({ where: { messageId: id! } })).toMatchObject({
      attempts: 2,
      claimedUntil: null,
      publishedAt: expect.any(Date),
    });
  });
});
