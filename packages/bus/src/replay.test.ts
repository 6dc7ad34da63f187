import { BUS_HEADERS } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { replayDeadLetters } from "./replay.ts";
import { busTestContext, type BusTestContext } from "./test-support/fixture.ts";

let t: BusTestContext;
beforeAll(async () => {
  t = await busTestContext("bus-replay");
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

describe("replaying the parking lot", () => {
  it("lists parked messages with their reasons, replays the selected type once the cause is fixed, keeps the rest", async () => {
    const bus = await t.startBus();
    let fixed = false;
    const handled: string[] = [];
    const subscription = await bus.consume("orders.work", {
      "order.place": async (message) => {
        if (!fixed) throw new Error("downstream bug");
        handled.push(message.payload.orderId);
      },
      "order.audit": async () => {
        throw new Error("audit broken");
      },
    });
    const placed = await bus.publish("order.place", { orderId: "o-1", seq: 1 });
    await bus.publish("order.audit", { orderId: "o-1" });
    await waitFor(async () => (await t.raw.checkQueue("orders.work.dlq")).messageCount === 2, { timeoutMs: 5000 });
    await subscription.stop();

    const listed = await replayDeadLetters(t.raw, { queue: "orders.work", dryRun: true });
    expect(listed.messages.map((m) => [m.type, m.reason, m.attempts])).toEqual(
      expect.arrayContaining([
        ["order.place", "max_attempts", 3],
        ["order.audit", "max_attempts", 2],
      ]),
    );
    expect(listed.messages.find((m) => m.type === "order.place")?.error).toBe("INTERNAL_ERROR: downstream bug");
    await waitFor(async () => (await t.raw.checkQueue("orders.work.dlq")).messageCount === 2, { what: "listed messages back in place" });

    fixed = true;
    const replayed = await replayDeadLetters(t.raw, { queue: "orders.work", type: "order.place" });
    expect(replayed.messages.map((m) => m.messageId)).toEqual([placed.message_id]);
    expect(replayed.kept).toBe(1);

    const message = await waitFor(() => t.raw.get("orders.work", { noAck: false }), { what: "the replayed message" });
    expect(message.properties.messageId).toBe(placed.message_id);
    const headers = message.properties.headers ?? {};
    expect(headers).toMatchObject({
      message_id: placed.message_id,
      request_id: placed.request_id,
      [BUS_HEADERS.attempt]: 1,
      [BUS_HEADERS.replayCount]: 1,
    });
    expect(headers[BUS_HEADERS.deadLetterReason]).toBeUndefined();
    expect(headers["x-death"]).toBeUndefined();
    t.raw.nack(message, false, true);

    // back through a consumer, it is handled normally this time
    await bus.consume("orders.work", {
      "order.place": async (m) => void handled.push(m.payload.orderId),
      "order.audit": async () => undefined,
    });
    await waitFor(() => handled.length === 1);
    expect(handled).toEqual(["o-1"]);
    const [kept] = await t.drain("orders.work.dlq");
    expect(kept!.properties.type).toBe("order.audit");
  });
});
