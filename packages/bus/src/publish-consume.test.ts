import { BUS_HEADERS, type BusEnvelope } from "@dormant/contracts";
import { currentRequestContext, runWithRequestContext } from "@dormant/service-kit";
import { recordSpansInMemory } from "@dormant/service-kit/tracing";
import { waitFor } from "@dormant/testing";
import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BusError } from "./errors.ts";
import { busTestContext, type BusTestContext } from "./test-support/fixture.ts";
import { traceIdOf } from "./trace-context.ts";

const spans = recordSpansInMemory("bus-test");

let t: BusTestContext;
beforeAll(async () => {
  t = await busTestContext("bus-publish");
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

describe("publishing", () => {
  it("resolves only once the broker holds the message, persistent and fully described", async () => {
    const bus = await t.startBus();
    const metadata = await bus.publish("order.place", { orderId: "o-1", seq: 1 });

    const [message] = await t.drain("orders.work");
    expect(message).toBeDefined();
    const { properties } = message!;
    expect(properties.deliveryMode).toBe(2);
    expect(properties.contentType).toBe("application/json");
    expect(properties.messageId).toBe(metadata.message_id);
    expect(properties.type).toBe("order.place");
    expect(properties.timestamp).toBe(Math.floor(Date.parse(metadata.occurred_at) / 1000));
    expect(properties.appId).toBe("bus-test");
    expect(properties.headers).toMatchObject({
      message_id: metadata.message_id,
      type: "order.place",
      schema_version: 1,
      occurred_at: metadata.occurred_at,
      request_id: metadata.request_id,
      traceparent: metadata.traceparent,
      [BUS_HEADERS.attempt]: 1,
    });
    expect(JSON.parse(message!.content.toString())).toEqual({ orderId: "o-1", seq: 1 });
    expect(await t.counter("bus_published_total", { type: "order.place" })).toBe(1);
  });

  it("refuses an invalid payload before it reaches the broker", async () => {
    const bus = await t.startBus();
    // @ts-expect-error seq must be a number
    await expect(bus.publish("order.place", { orderId: "o-1", seq: "one" })).rejects.toMatchObject({ reason: "invalid_message" });
    expect(await t.drain("orders.work")).toHaveLength(0);
  });

  it("fails a command whose queue is gone instead of dropping it (mandatory)", async () => {
    const bus = await t.startBus();
    await t.raw.deleteQueue("orders.work");
    try {
      const error = await bus.publish("order.place", { orderId: "o-2", seq: 2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BusError);
      expect(error).toMatchObject({ reason: "unroutable", retryable: false });
    } finally {
      await t.raw.assertQueue("orders.work", {
        durable: true,
        arguments: {
          "x-queue-type": "quorum",
          "x-delivery-limit": 5,
          "x-dead-letter-exchange": "",
          "x-dead-letter-routing-key": "orders.work.dlq",
          "x-dead-letter-strategy": "at-least-once",
          "x-overflow": "reject-publish",
        },
      });
    }
  });

  it("holds a delayed command back for the delay (through a wait tier)", async () => {
    const bus = await t.startBus();
    const received: number[] = [];
    await bus.consume("orders.work", {
      "order.place": async () => void received.push(Date.now()),
      "order.audit": async () => undefined,
    });
    const sent = Date.now();
    await bus.publish("order.place", { orderId: "o-3", seq: 3 }, { delayMs: 150 });
    await waitFor(() => received.length === 1, { timeoutMs: 5000 });
    const waited = received[0]! - sent;
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(1500);
  });
});

describe("consuming", () => {
  it("delivers commands and events to their handlers with the metadata", async () => {
    const bus = await t.startBus();
    const placed: BusEnvelope<{ orderId: string; seq: number }>[] = [];
    const shipped: string[] = [];
    await bus.consume("orders.work", {
      "order.place": async (message) => void placed.push(message),
      "order.audit": async () => undefined,
    });
    await bus.consume("ledger.events", { "order.shipped": async (message) => void shipped.push(message.payload.orderId) });

    const metadata = await bus.publish("order.place", { orderId: "o-4", seq: 4 });
    await bus.publish("order.shipped", { orderId: "o-4" });

    await waitFor(() => placed.length === 1 && shipped.length === 1);
    expect(placed[0]).toMatchObject({ ...metadata, payload: { orderId: "o-4", seq: 4 } });
    expect(shipped).toEqual(["o-4"]);
    expect(await t.counter("bus_consumed_total", { queue: "orders.work", type: "order.place" })).toBe(1);
    expect(await t.drain("orders.work")).toHaveLength(0);
  });

  it("carries request_id and the caller's trace from the publisher into the handler and onwards", async () => {
    const bus = await t.startBus();
    spans.reset();
    // The caller's span, as the gateway's HTTP instrumentation makes it from an agent's traceparent.
    const caller = propagation.extract(ROOT_CONTEXT, { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" });
    const seen: { requestId?: string; traceId?: string }[] = [];
    await bus.consume("orders.work", {
      "order.place": async (message) => {
        seen.push({ ...currentRequestContext(), traceId: trace.getActiveSpan()?.spanContext().traceId });
        // Whatever a handler publishes continues the same request and trace.
        await bus.publish("order.shipped", { orderId: message.payload.orderId });
      },
      "order.audit": async () => undefined,
    });

    const metadata = await context.with(caller, () =>
      runWithRequestContext({ requestId: "req-abc" }, () => bus.publish("order.place", { orderId: "o-5", seq: 5 })),
    );
    expect(metadata.request_id).toBe("req-abc");
    expect(traceIdOf(metadata.traceparent)).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(metadata.traceparent).toMatch(/-01$/);

    await waitFor(() => seen.length === 1);
    expect(seen[0]).toEqual({ requestId: "req-abc", traceId: "4bf92f3577b34da6a3ce929d0e0e4736" });
    const [event] = await waitFor(async () => {
      const got = await t.drain("ledger.events");
      return got.length > 0 ? got : undefined;
    });
    expect(event!.properties.headers).toMatchObject({ request_id: "req-abc" });
    expect(traceIdOf(String(event!.properties.headers?.traceparent))).toBe("4bf92f3577b34da6a3ce929d0e0e4736");

    // The spans link up: caller -> create (PRODUCER) -> handler (CONSUMER) -> create of the next message.
    const finished = await waitFor(() => {
      const all = spans.getFinishedSpans();
      return all.length >= 3 ? all : undefined;
    });
    const byName = (name: string) => finished.find((span) => span.name === name);
    const create = byName("order.place create");
    const handled = byName("order.place");
    const next = byName("order.shipped create");
    expect(create).toMatchObject({ kind: SpanKind.PRODUCER, parentSpanContext: { spanId: "00f067aa0ba902b7" } });
    expect(metadata.traceparent.split("-")[2]).toBe(create!.spanContext().spanId);
    expect(handled).toMatchObject({ kind: SpanKind.CONSUMER, parentSpanContext: { spanId: create!.spanContext().spanId } });
    expect(handled!.attributes).toMatchObject({ "messaging.destination.name": "orders.work", "messaging.message.id": metadata.message_id });
    expect(next).toMatchObject({ kind: SpanKind.PRODUCER, parentSpanContext: { spanId: handled!.spanContext().spanId } });
    for (const span of [create, handled, next]) expect(span!.spanContext().traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("starts a request id and a trace of its own outside any request", async () => {
    const bus = await t.startBus();
    const metadata = await bus.publish("order.place", { orderId: "o-6", seq: 6 });
    expect(metadata.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(metadata.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(traceIdOf(metadata.traceparent)).not.toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });
});
