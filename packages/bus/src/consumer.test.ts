import { randomUUID } from "node:crypto";
import { AppError, BUS_HEADERS, DeadLetterHeaders } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import type { GetMessage } from "amqplib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { messageProperties, newMetadata } from "./envelope.ts";
import { busTestContext, type BusTestContext } from "./test-support/fixture.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: BusTestContext;
beforeAll(async () => {
  t = await busTestContext("bus-consumer");
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

/** Takes messages from a queue until `count` have come. */
async function parked(queue: string, count = 1) {
  const got: GetMessage[] = [];
  return waitFor(
    async () => {
      got.push(...(await t.drain(queue)));
      return got.length >= count ? got : undefined;
    },
    { timeoutMs: 5000, what: `${count} message(s) in ${queue}` },
  );
}

/** Publishes straight to the queue with raw amqplib, as a misbehaving producer would. */
async function publishRaw(content: string, headers: Record<string, unknown>) {
  await new Promise<void>((resolve, reject) =>
    t.raw.sendToQueue(
      "orders.work",
      Buffer.from(content),
      { messageId: randomUUID(), type: "order.place", persistent: true, headers },
      (e: unknown) => (e ? reject(e instanceof Error ? e : new Error(String(e))) : resolve()),
    ),
  );
}

describe("retries", () => {
  it("retries a failing handler through the wait tiers with growing delays, then parks it", async () => {
    const bus = await t.startBus();
    const attempts: { attempt: number; at: number }[] = [];
    await bus.consume("orders.work", {
      "order.place": async (_message, context) => {
        attempts.push({ attempt: context.attempt, at: Date.now() });
        throw new Error("database unavailable");
      },
      "order.audit": async () => undefined,
    });
    const metadata = await bus.publish("order.place", { orderId: "o-1", seq: 1 });

    const [message] = await parked("orders.work.dlq");
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // backoff 50 ms then 100 ms, each shortened by at most 20 % jitter
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(38);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(78);

    const headers = DeadLetterHeaders.parse(message!.properties.headers);
    expect(headers).toMatchObject({
      [BUS_HEADERS.deadLetterReason]: "max_attempts",
      [BUS_HEADERS.errorCode]: "INTERNAL_ERROR",
      [BUS_HEADERS.errorMessage]: "database unavailable",
      [BUS_HEADERS.errorRetryable]: true,
      [BUS_HEADERS.failedQueue]: "orders.work",
      [BUS_HEADERS.attempt]: 3,
    });
    expect(message!.properties.messageId).toBe(metadata.message_id);
    expect(message!.properties.headers).toMatchObject({ message_id: metadata.message_id, request_id: metadata.request_id });
    expect(JSON.parse(message!.content.toString())).toEqual({ orderId: "o-1", seq: 1 });

    const labels = { queue: "orders.work", type: "order.place" };
    expect(await t.counter("bus_consumed_total", labels)).toBe(3);
    expect(await t.counter("bus_failed_total", labels)).toBe(3);
    expect(await t.counter("bus_retried_total", labels)).toBe(2);
    expect(await t.counter("bus_dead_lettered_total", { ...labels, reason: "max_attempts" })).toBe(1);
    expect(await t.drain("orders.work")).toHaveLength(0);
  });

  it("succeeds on a later attempt and leaves nothing behind", async () => {
    const bus = await t.startBus();
    const attempts: number[] = [];
    await bus.consume("orders.work", {
      "order.place": async (_message, context) => {
        attempts.push(context.attempt);
        if (context.attempt < 2) throw new AppError("SERVICE_UNAVAILABLE", "try later");
      },
      "order.audit": async () => undefined,
    });
    await bus.publish("order.place", { orderId: "o-2", seq: 2 });
    await waitFor(() => attempts.length === 2);
    await new Promise((r) => setTimeout(r, 150));
    expect(attempts).toEqual([1, 2]);
    expect(await t.drain("orders.work.dlq")).toHaveLength(0);
  });

  it("parks a non-retryable failure at once", async () => {
    const bus = await t.startBus();
    let calls = 0;
    await bus.consume("orders.work", {
      "order.place": async () => {
        calls++;
        throw new AppError("VALIDATION_ERROR", "period longer than 18 months");
      },
      "order.audit": async () => undefined,
    });
    await bus.publish("order.place", { orderId: "o-3", seq: 3 });
    const [message] = await parked("orders.work.dlq");
    expect(calls).toBe(1);
    expect(message!.properties.headers).toMatchObject({
      [BUS_HEADERS.deadLetterReason]: "non_retryable",
      [BUS_HEADERS.errorCode]: "VALIDATION_ERROR",
      [BUS_HEADERS.errorRetryable]: false,
      [BUS_HEADERS.attempt]: 1,
    });
  });

  it("aborts a handler that overruns its timeout and counts it as a failed attempt", async () => {
    const bus = await t.startBus();
    const aborted: boolean[] = [];
    await bus.consume("orders.work", {
      "order.place": async () => undefined,
      "order.audit": (_message, context) =>
        new Promise<void>((resolve) => {
          context.signal.addEventListener("abort", () => {
            aborted.push(true);
            resolve();
          });
        }),
    });
    await bus.publish("order.audit", { orderId: "o-4" });
    const [message] = await parked("orders.work.dlq");
    expect(aborted).toEqual([true, true]);
    expect(message!.properties.headers).toMatchObject({
      [BUS_HEADERS.deadLetterReason]: "max_attempts",
      [BUS_HEADERS.attempt]: 2,
    });
    expect(String(message!.properties.headers?.[BUS_HEADERS.errorMessage])).toContain("took longer than 150 ms");
  });
});

describe("invalid messages", () => {
  it("parks an invalid payload without calling the handler or retrying", async () => {
    const bus = await t.startBus();
    let calls = 0;
    await bus.consume("orders.work", {
      "order.place": async () => void calls++,
      "order.audit": async () => undefined,
    });
    const metadata = newMetadata("order.place", 1);
    await publishRaw(JSON.stringify({ orderId: "", seq: -1 }), messageProperties(metadata, "rogue").headers as Record<string, unknown>);

    const [message] = await parked("orders.work.dlq");
    expect(calls).toBe(0);
    const headers = DeadLetterHeaders.parse(message!.properties.headers);
    expect(headers[BUS_HEADERS.deadLetterReason]).toBe("invalid_message");
    expect(headers[BUS_HEADERS.errorRetryable]).toBe(false);
    expect(headers[BUS_HEADERS.attempt]).toBe(1);
    expect(headers[BUS_HEADERS.errorMessage]).toContain("orderId");
    expect(headers[BUS_HEADERS.errorMessage]).toContain("seq");
    expect(await t.counter("bus_retried_total", { queue: "orders.work", type: "order.place" })).toBe(0);
    expect(await t.counter("bus_dead_lettered_total", { queue: "orders.work", type: "order.place", reason: "invalid_message" })).toBe(1);
  });

  it("parks messages without metadata, with a body that is not JSON, of an unknown version or type", async () => {
    const bus = await t.startBus();
    let calls = 0;
    await bus.consume("orders.work", {
      "order.place": async () => void calls++,
      "order.audit": async () => void calls++,
    });
    const headersFor = (type: string, version: number) =>
      messageProperties(newMetadata(type, version), "rogue").headers as Record<string, unknown>;
    await publishRaw(JSON.stringify({ orderId: "o", seq: 1 }), {});
    await publishRaw("{not json", headersFor("order.place", 1));
    await publishRaw(JSON.stringify({ orderId: "o" }), headersFor("order.audit", 1));
    await publishRaw(JSON.stringify({ orderId: "o" }), headersFor("order.unheard_of", 1));

    const messages = await parked("orders.work.dlq", 4);
    expect(calls).toBe(0);
    const reasons = messages.map((m) => [
      m.properties.headers?.[BUS_HEADERS.deadLetterReason],
      m.properties.headers?.[BUS_HEADERS.errorMessage],
    ]);
    expect(reasons).toHaveLength(4);
    expect(reasons).toEqual(
      expect.arrayContaining([
        ["invalid_message", expect.stringContaining("invalid message headers")],
        ["invalid_message", "body is not JSON"],
        ["invalid_message", "schema_version 1; this consumer reads 2"],
        ["unknown_type", 'no handler for "order.unheard_of" on orders.work'],
      ]),
    );
  });
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
    // A quorum queue forgets a closed channel's consumer a moment after the close is answered.
    await waitFor(async () => (await t.raw.checkQueue("orders.work")).consumerCount === 0, { what: "the broker to drop the consumer" });
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
