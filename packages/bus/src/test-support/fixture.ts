import { createTestVhost, type TestVhost } from "@dormant/testing";
import { connect, type ChannelModel, type ConfirmChannel, type GetMessage } from "amqplib";
import { Registry } from "prom-client";
import { z } from "zod";
import { connectBus, type Bus, type BusOptions } from "../bus.ts";
import { defineMessageCatalog, defineRpcCatalog } from "../catalog/define.ts";
import { declareTopology } from "../topology/declare.ts";
import { defineTopology, planTopology } from "../topology/plan.ts";

/** A small topology of its own for the bus tests, with wait tiers of milliseconds. */
export const testTopology = defineTopology({
  exchanges: [{ name: "shop.events", type: "topic", purpose: "test events" }],
  workQueues: [
    { name: "orders.work", purpose: "test commands", waitTiersMs: [50, 100, 200, 1000], deliveryLimit: 5 },
    { name: "ledger.events", purpose: "test event consumer", waitTiersMs: [50, 100], deliveryLimit: 5 },
  ],
  rpcQueues: [
    { name: "pricing.rpc", purpose: "test rpc server", maxRequestAgeMs: 10_000 },
    { name: "nobody.rpc", purpose: "never served", maxRequestAgeMs: 10_000 },
  ],
  bindings: [{ exchange: "shop.events", routingKey: "order.*", queue: "ledger.events" }],
});

const quickRetry = { maxAttempts: 3, backoffMs: [50, 100], jitter: 0.2 };

export const testMessages = defineMessageCatalog({
  "order.place": {
    schema: z.object({ orderId: z.string().min(1), seq: z.int().nonnegative() }),
    schemaVersion: 1,
    route: { kind: "command", queue: "orders.work" },
    retry: quickRetry,
    timeoutMs: 2000,
  },
  "order.audit": {
    schema: z.object({ orderId: z.string().min(1) }),
    schemaVersion: 2,
    route: { kind: "command", queue: "orders.work" },
    retry: { maxAttempts: 2, backoffMs: [50], jitter: 0 },
    timeoutMs: 150,
  },
  "order.shipped": {
    schema: z.object({ orderId: z.string().min(1) }),
    schemaVersion: 1,
    route: { kind: "event", exchange: "shop.events", routingKey: "order.shipped", consumers: ["ledger.events"] },
    retry: quickRetry,
    timeoutMs: 2000,
  },
});

export const testRpc = defineRpcCatalog({
  "pricing.quote": {
    queue: "pricing.rpc",
    request: z.object({ sku: z.string().min(1), quantity: z.int().positive() }),
    response: z.object({ totalPence: z.int(), requestId: z.string(), traceparent: z.string().optional() }),
    schemaVersion: 1,
    timeoutMs: 2000,
  },
  "nobody.ping": {
    queue: "nobody.rpc",
    request: z.object({}),
    response: z.object({}),
    schemaVersion: 1,
    timeoutMs: 2000,
  },
});

export type TestBus = Bus<typeof testMessages, typeof testRpc>;

type Overrides = Partial<Omit<BusOptions<typeof testMessages, typeof testRpc>, "messages" | "rpc">>;

/** The vhost of one test file, a raw channel for looking at queues, and buses closed at the end. */
export interface BusTestContext {
  vhost: TestVhost;
  /** A plain channel of the test's own (its connection is named "test-raw"). */
  raw: ConfirmChannel;
  /** Opens `raw` again (after a test dropped every connection of the vhost). */
  reopenRaw(): Promise<void>;
  metrics: Registry;
  startBus(overrides?: Overrides): Promise<TestBus>;
  /** Empties every queue of the test topology and zeroes the counters (before each test). */
  purge(): Promise<void>;
  /** Closes the buses started so far (after each test). */
  closeBuses(): Promise<void>;
  /** Takes every message currently in a queue (acked). */
  drain(queue: string): Promise<GetMessage[]>;
  /** Current value of a bus counter for the labels given. */
  counter(name: string, labels: Record<string, string>): Promise<number>;
  teardown(): Promise<void>;
}

export async function busTestContext(label: string): Promise<BusTestContext> {
  const vhost = await createTestVhost(label);
  let rawModel: ChannelModel | null = null;
  const buses: TestBus[] = [];
  const metrics = new Registry();
  const openRaw = async () => {
    await (rawModel as ChannelModel | null)?.close().catch(() => undefined);
    rawModel = await connect(vhost.url, { clientProperties: { connection_name: "test-raw" } });
    rawModel.on("error", () => undefined);
    const channel = await rawModel.createConfirmChannel();
    channel.on("error", () => undefined);
    return channel;
  };
  const context: BusTestContext = {
    vhost,
    raw: await openRaw(),
    async reopenRaw() {
      context.raw = await openRaw();
    },
    metrics,
    async startBus(overrides = {}) {
      const bus = await connectBus({
        url: vhost.url,
        service: "bus-test",
        messages: testMessages,
        rpc: testRpc,
        topology: testTopology,
        metrics,
        publishTimeoutMs: 5000,
        reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
        ...overrides,
      });
      buses.push(bus);
      return bus;
    },
    async purge() {
      for (const queue of planTopology(testTopology).queues) await context.raw.purgeQueue(queue.name);
      metrics.resetMetrics();
    },
    async closeBuses() {
      await Promise.all(buses.splice(0).map((bus) => bus.close().catch(() => undefined)));
    },
    async drain(queue) {
      const messages: GetMessage[] = [];
      for (;;) {
        const message = await context.raw.get(queue, { noAck: true });
        if (!message) return messages;
        messages.push(message);
      }
    },
    async counter(name, labels) {
      const metric = metrics.getSingleMetric(name);
      if (!metric) return 0;
      const { values } = await metric.get();
      const match = values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
      return match?.value ?? 0;
    },
    async teardown() {
      await context.closeBuses();
      await (rawModel as ChannelModel | null)?.close().catch(() => undefined);
      await vhost.delete();
    },
  };
  await declareTopology(context.raw, testTopology);
  return context;
}
