import { Writable } from "node:stream";
import { context, propagation, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import { runWithRequestContext } from "../request-context.ts";
import { recordSpansInMemory } from "./in-memory.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ service: "svc", level: "info", destination }) };
}

describe("trace_id and span_id on log lines", () => {
  beforeAll(() => {
    recordSpansInMemory("svc");
  });

  it("carries the active span's ids beside the request id, and none outside a span", () => {
    const { lines, logger } = capture();
    const tracer = trace.getTracer("test");
    let ids: { traceId: string; spanId: string } | undefined;
    tracer.startActiveSpan("work", (span) => {
      ids = span.spanContext();
      runWithRequestContext({ requestId: "req-1" }, () => logger.info("inside"));
      span.end();
    });
    logger.info("outside");
    expect(lines[0]).toMatchObject({ msg: "inside", request_id: "req-1", trace_id: ids!.traceId, span_id: ids!.spanId });
    expect(lines[1]).not.toHaveProperty("trace_id");
    expect(lines[1]).not.toHaveProperty("span_id");
  });

  it("carries them for a trace that is not sampled too (the caller's ids, nothing exported)", () => {
    const { lines, logger } = capture();
    const unsampled = propagation.extract(ROOT_CONTEXT, { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00" });
    context.with(unsampled, () => logger.info("from an unsampled caller"));
    expect(lines[0]).toMatchObject({ trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", span_id: "00f067aa0ba902b7" });
  });
});
