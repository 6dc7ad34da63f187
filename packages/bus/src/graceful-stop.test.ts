import { waitFor } from "@dormant/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { busTestContext, type BusTestContext } from "./test-support/fixture.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: BusTestContext;
beforeAll(async () => {
  t = await busTestContext("bus-stop");
});
afterAll(async () => {
  await t.teardown();
});
beforeEach(async () => {
  await t.purge();
});
afterEach(async () => {
  await t.closeBuses();
});

describe("graceful stop", () => {
  it("stops taking deliveries, waits for the handler in flight, and acks its message", async () => {
    const bus = await t.startBus();
    const calls: number[] = [];
    let release = () => {};
    let finished = false;
    const subscription = await bus.consume("orders.work", {
      "order.place": async (message) => {
        calls.push(message.payload.seq);
        await new Promise<void>((resolve) => (release = resolve));
        finished = true;
      },
      "order.audit": async () => undefined,
    });
    await bus.publish("order.place", { orderId: "o-1", seq: 1 });
    await waitFor(() => calls.length === 1);

    let stopped = false;
    const stopping = subscription.stop().then(() => (stopped = true));
    await sleep(100);
    expect(stopped).toBe(false);

    await bus.publish("order.place", { orderId: "o-2", seq: 2 });
    await sleep(100);
    expect(calls).toEqual([1]);

    release();
    await stopping;
    expect(finished).toBe(true);
    // the first message was acked, the second waits for the next consumer
    const queue = await t.raw.checkQueue("orders.work");
    expect(queue.messageCount).toBe(1);
    expect(queue.consumerCount).toBe(0);
  });

  it("closes the bus only after the handlers in flight have finished", async () => {
    const bus = await t.startBus();
    let finished = false;
    await bus.consume("orders.work", {
      "order.place": async () => {
        await sleep(300);
        finished = true;
      },
      "order.audit": async () => undefined,
    });
    await bus.publish("order.place", { orderId: "o-3", seq: 3 });
    await waitFor(async () => (await t.raw.checkQueue("orders.work")).messageCount === 0);
    await bus.close();
    expect(finished).toBe(true);
    expect(bus.isConnected()).toBe(false);
    expect((await t.raw.checkQueue("orders.work")).messageCount).toBe(0);
    await expect(bus.publish("order.place", { orderId: "o-4", seq: 4 })).rejects.toMatchObject({ reason: "bus_closed" });
    await expect(bus.rpcCall("pricing.rpc", "pricing.quote", { sku: "tea", quantity: 1 })).rejects.toMatchObject({ reason: "bus_closed" });
  });
});
