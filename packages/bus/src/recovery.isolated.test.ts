import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { waitFor } from "@dormant/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RpcConnectionLostError } from "./errors.ts";
import { busTestContext, type BusTestContext, type TestBus } from "./test-support/fixture.ts";

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: BusTestContext;
beforeAll(async () => {
  t = await busTestContext("bus-recovery");
});
afterAll(async () => {
  await t.teardown();
});
afterEach(async () => {
  await t.closeBuses();
  await t.reopenRaw();
});

/** Client ports of this vhost's bus connections: new ports after a drop prove the connections were replaced. */
async function busConnectionPorts(): Promise<number[]> {
  // list_connections is not scoped by -p: every connection of the node comes back, filter by vhost.
  const { stdout } = await run("rabbitmqctl", ["-q", "list_connections", "--formatter", "json", "vhost", "client_properties", "peer_port"]);
  const connections = JSON.parse(stdout) as { vhost: string; client_properties: [string, string, unknown][]; peer_port: number }[];
  return connections
    .filter((c) => c.vhost === t.vhost.vhost)
    .filter((c) => c.client_properties.some(([key, , value]) => key === "connection_name" && value !== "test-raw"))
    .map((c) => c.peer_port);
}

/** Serves pricing; a "hang" request holds its handler (and its reply) until released. */
async function servePricing(bus: TestBus, hanging: { count: number; release: Promise<void> }) {
  await bus.rpcServe("pricing.rpc", {
    "pricing.quote": async (request, context) => {
      if (request.sku === "hang") {
        hanging.count++;
        await hanging.release;
      }
      return { totalPence: request.quantity, requestId: context.requestId };
    },
  });
}

describe("recovery after the broker drops the connections", () => {
  it("loses no message of a sequence published across the drop, fails calls in flight fast, then serves RPC again", async () => {
    const consumer = await t.startBus({ service: "consumer" });
    const producer = await t.startBus({ service: "producer" });
    const seen = new Set<number>();
    let deliveries = 0;
    await consumer.consume("orders.work", {
      "order.place": async (message) => {
        deliveries++;
        await sleep(1);
        seen.add(message.payload.seq);
      },
      "order.audit": async () => undefined,
    });
    let release = () => {};
    const hanging = { count: 0, release: new Promise<void>((resolve) => (release = resolve)) };
    await servePricing(consumer, hanging);
    const portsBefore = await busConnectionPorts();
    expect(portsBefore).toHaveLength(2);

    const total = 300;
    let published = 0;
    const publishing = (async () => {
      for (let seq = 0; seq < total; seq++) {
        await producer.publish("order.place", { orderId: `o-${seq}`, seq });
        published++;
        // Paced (about 3 s in all) so that the drop, which takes rabbitmqctl a second or so,
        // lands mid-stream however fast publishing is.
        await sleep(10);
      }
    })();

    await waitFor(() => seen.size >= 60, { timeoutMs: 10_000, what: "the first messages" });
    const inFlightCall = producer
      // The call's deadline is far beyond the drop, which takes rabbitmqctl several seconds on a
      // busy machine: the call must fail with the connection, not reach its deadline first.
      .rpcCall("pricing.rpc", "pricing.quote", { sku: "hang", quantity: 1 }, { timeoutMs: 60_000 })
      .catch((e: unknown) => e);
    await waitFor(() => hanging.count === 1, { what: "the call to reach its server" });
    await t.vhost.dropConnections();
    const droppedAt = Date.now();
    expect(published).toBeLessThan(total); // the drop came mid-stream

    const callError = await inFlightCall;
    expect(callError).toBeInstanceOf(RpcConnectionLostError);
    expect(callError).toMatchObject({ retryable: true });
    release();
    expect(Date.now() - droppedAt).toBeLessThan(1000); // failed with the connection, not at the 60 s timeout

    await publishing; // publish resolved: each was confirmed, before or after the drop
    await waitFor(() => seen.size === total, { timeoutMs: 15_000, what: `all ${total} messages` });
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(deliveries).toBeGreaterThanOrEqual(total); // duplicates allowed, losses not

    const portsAfter = await busConnectionPorts();
    expect(portsAfter).toHaveLength(2);
    expect(portsAfter.some((port) => portsBefore.includes(port))).toBe(false);
    expect(producer.isConnected() && consumer.isConnected()).toBe(true);
    await expect(producer.rpcCall("pricing.rpc", "pricing.quote", { sku: "tea", quantity: 7 })).resolves.toMatchObject({ totalPence: 7 });
  }, 120_000);

  it("makes a publish wait for the connection to come back, within the publish timeout", async () => {
    // The reconnect waits long enough (3 s) that dropping and reopening through rabbitmqctl, slow
    // on a busy machine, is over before it: the publish below is the one that waits for it.
    const producer = await t.startBus({ service: "producer", reconnect: { initialDelayMs: 3000, maxDelayMs: 3000 } });
    await t.drain("orders.work"); // whatever an earlier test left
    await t.vhost.dropConnections();
    await t.reopenRaw();
    expect(producer.isConnected()).toBe(false);
    await expect(producer.readinessCheck()).rejects.toThrow("not connected");
    const started = Date.now();
    await producer.publish("order.place", { orderId: "o-late", seq: 1 });
    expect(Date.now() - started).toBeGreaterThan(100);
    expect(producer.isConnected()).toBe(true);
    const [message] = await t.drain("orders.work");
    expect(JSON.parse(message!.content.toString())).toEqual({ orderId: "o-late", seq: 1 });
  });

  it("rejects a publish with BusUnavailableError when the connection stays down past the publish timeout", async () => {
    const producer = await t.startBus({
      service: "producer",
      publishTimeoutMs: 200,
      reconnect: { initialDelayMs: 1500, maxDelayMs: 1500 },
    });
    await t.vhost.dropConnections();
    const started = Date.now();
    await expect(producer.publish("order.place", { orderId: "o-never", seq: 1 })).rejects.toMatchObject({
      name: "BusUnavailableError",
      reason: "bus_unavailable",
      retryable: true,
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
