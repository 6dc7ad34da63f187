import { connect } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectQueues, topologyQueues } from "./inspect-queues.ts";
import { busTestContext, type BusTestContext, testTopology } from "./test-support/fixture.ts";

// Depth and consumers of every queue of a topology, read from a real broker (own vhost).
let t: BusTestContext;
beforeAll(async () => {
  t = await busTestContext("bus-inspect");
});
afterAll(async () => {
  await t.teardown();
});

describe("inspecting the queues of a topology", () => {
  it("lists work, wait, dead-letter and RPC queues in topology order", () => {
    expect(topologyQueues(testTopology).map((q) => `${q.kind}:${q.name}`)).toEqual([
      "work:orders.work",
      "wait:orders.work.wait.50ms",
      "wait:orders.work.wait.100ms",
      "wait:orders.work.wait.200ms",
      "wait:orders.work.wait.1s",
      "dead_letter:orders.work.dlq",
      "work:ledger.events",
      "wait:ledger.events.wait.50ms",
      "wait:ledger.events.wait.100ms",
      "dead_letter:ledger.events.dlq",
      "rpc:pricing.rpc",
      "rpc:nobody.rpc",
    ]);
  });

  it("reads depths and consumers without changing anything, and reports queues the broker lacks as missing", async () => {
    const bus = await t.startBus();
    await bus.rpcServe("pricing.rpc", { "pricing.quote": async () => ({ totalPence: 1, requestId: "r" }) });
    t.raw.sendToQueue("orders.work.dlq", Buffer.from("{}"));
    t.raw.sendToQueue("orders.work.dlq", Buffer.from("{}"));
    await t.raw.waitForConfirms();
    const connection = await connect(t.vhost.url);
    try {
      const states = await inspectQueues(connection, testTopology);
      const byName = Object.fromEntries(states.map((state) => [state.name, state]));
      expect(byName["orders.work.dlq"]).toEqual({
        name: "orders.work.dlq",
        kind: "dead_letter",
        work_queue: "orders.work",
        messages: 2,
        consumers: 0,
      });
      expect(byName["pricing.rpc"]).toMatchObject({ kind: "rpc", messages: 0, consumers: 1 });
      expect(byName["nobody.rpc"]).toEqual({ name: "nobody.rpc", kind: "rpc", messages: 0, consumers: 0, missing: true });
      // a queue after the missing one is still read (another channel)
      expect(states.at(-1)?.name).toBe("nobody.rpc");
      expect(byName["ledger.events"]).toEqual({ name: "ledger.events", kind: "work", messages: 0, consumers: 0 });
      expect((await t.raw.checkQueue("orders.work.dlq")).messageCount).toBe(2);
    } finally {
      await connection.close();
      await t.closeBuses();
    }
  });
});
