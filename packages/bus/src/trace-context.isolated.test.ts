import { Traceparent } from "@dormant/contracts";
import { recordSpansInMemory } from "@dormant/service-kit/tracing";
import { type Context, context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { beforeAll, describe, expect, it } from "vitest";
import { inHandlerSpan, newMessageTraceHeaders, traceHeadersOf, traceIdOf } from "./trace-context.ts";

const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("trace context without tracing started (a tool, a unit test)", () => {
  it("still gives every message a valid traceparent of a fresh, unsampled trace", () => {
    const [a, b] = [newMessageTraceHeaders("order.place"), newMessageTraceHeaders("order.place")];
    for (const headers of [a, b]) {
      expect(Traceparent.safeParse(headers.traceparent).success).toBe(true);
      expect(headers.traceparent.endsWith("-00")).toBe(true);
    }
    expect(traceIdOf(a.traceparent)).not.toBe(traceIdOf(b.traceparent));
  });
});

describe("trace context with tracing", () => {
  let spans: ReturnType<typeof recordSpansInMemory>;
  let caller: Context;
  beforeAll(() => {
    spans = recordSpansInMemory("bus-test");
    caller = propagation.extract(ROOT_CONTEXT, { traceparent: parent, tracestate: "vendor=abc" });
  });

  it("continues the caller's trace through a PRODUCER span, keeping tracestate and the sampled flag", () => {
    spans.reset();
    const headers = context.with(caller, () => newMessageTraceHeaders("order.place"));
    expect(Traceparent.parse(headers.traceparent)).toBe(headers.traceparent);
    expect(traceIdOf(headers.traceparent)).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(headers.traceparent.endsWith("-01")).toBe(true);
    expect(headers.tracestate).toBe("vendor=abc");
    const [span] = spans.getFinishedSpans();
    expect(span).toMatchObject({ name: "order.place create", kind: SpanKind.PRODUCER, parentSpanContext: { spanId: "00f067aa0ba902b7" } });
    expect(headers.traceparent.split("-")[2]).toBe(span!.spanContext().spanId);
  });

  it("runs a handler inside a span continuing the message's trace, and records its failure", async () => {
    spans.reset();
    const message = { type: "order.place", message_id: "m-1", traceparent: parent };
    const inside = await inHandlerSpan(message, "consumer", "orders.work", async () => trace.getActiveSpan()?.spanContext().traceId);
    expect(inside).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    await expect(
      inHandlerSpan(message, "server", "orders.rpc", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const [ok, failed] = spans.getFinishedSpans();
    expect(ok).toMatchObject({ kind: SpanKind.CONSUMER, parentSpanContext: { spanId: "00f067aa0ba902b7", isRemote: true } });
    expect(failed).toMatchObject({ kind: SpanKind.SERVER, status: { code: SpanStatusCode.ERROR, message: "boom" } });
  });

  it("gives the headers of whatever span is active", () => {
    expect(traceHeadersOf(caller).traceparent).toBe(parent);
  });
});
