import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AlwaysOnSampler, InMemorySpanExporter, ParentBasedSampler, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import express from "express";
import request from "supertest";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HTTP_SERVER_SPANS_SCOPE, nameServerSpan, traceHttpRequests } from "./http-server-spans.ts";
import { installTracerProvider } from "./provider.ts";

const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

/** What the handler saw of the active span: the context the rest of the request runs in. */
let seen: { traceId: string; spanId: string; recording: boolean } | undefined;

function app() {
  const server = express();
  server.use(traceHttpRequests());
  server.post("/things/:id", express.json(), (req, res) => {
    nameServerSpan(res, "/things/{id}");
    // After the body was read from the socket's events: the request's context must still be active.
    const span = trace.getSpan(context.active());
    seen = span && { ...span.spanContext(), recording: span.isRecording() };
    res.status(req.body.fail ? 503 : 201).json({ id: req.params.id });
  });
  server.get("/healthz", (_req, res) => {
    seen = undefined;
    res.json({ status: "ok" });
  });
  server.get("/slow", () => {
    // never answers: the caller goes away
  });
  return server;
}

describe("traceHttpRequests: one SERVER span per request, the caller's traceparent honoured", () => {
  let exporter: InMemorySpanExporter;
  beforeAll(() => {
    exporter = new InMemorySpanExporter();
    // As in production: the caller's sampling decision is followed, new traces are sampled (here always).
    installTracerProvider({
      service: "svc",
      sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      processors: [new SimpleSpanProcessor({ exporter })],
    });
  });
  beforeEach(() => {
    exporter.reset();
    seen = undefined;
  });

  it("continues the caller's trace, names the span by its route, records method, path and status", async () => {
    const response = await request(app())
      .post("/things/42?secret=x")
      .set("traceparent", `00-${CALLER_TRACE}-${CALLER_SPAN}-01`)
      .send({ fail: false });
    expect(response.status).toBe(201);
    const [span] = exporter.getFinishedSpans();
    expect(span).toBeDefined();
    expect(span?.instrumentationScope.name).toBe(HTTP_SERVER_SPANS_SCOPE);
    expect(span?.kind).toBe(SpanKind.SERVER);
    expect(span?.name).toBe("POST /things/{id}");
    expect(span?.spanContext().traceId).toBe(CALLER_TRACE);
    expect(span?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(span?.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/things/{id}",
      "url.path": "/things/42",
      "http.response.status_code": 201,
    });
    expect(JSON.stringify(span?.attributes)).not.toContain("secret");
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    // The handler ran inside it, after the body was parsed.
    expect(seen).toMatchObject({ traceId: CALLER_TRACE, spanId: span?.spanContext().spanId, recording: true });
  });

  it("starts a new trace without a traceparent, and marks a 5xx answer as an error", async () => {
    const response = await request(app()).post("/things/7").send({ fail: true });
    expect(response.status).toBe(503);
    const [span] = exporter.getFinishedSpans();
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.spanContext().traceId).not.toBe(CALLER_TRACE);
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes["http.response.status_code"]).toBe(503);
  });

  it("records nothing for a caller's unsampled trace, yet the request runs in it (ids for the logs)", async () => {
    await request(app()).post("/things/1").set("traceparent", `00-${CALLER_TRACE}-${CALLER_SPAN}-00`).send({});
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    expect(seen).toMatchObject({ traceId: CALLER_TRACE, recording: false });
    expect(seen?.spanId).not.toBe(CALLER_SPAN);
  });

  it("makes no span for the ops endpoints", async () => {
    expect((await request(app()).get("/healthz")).status).toBe(200);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("ends the span when the caller goes away before the answer", async () => {
    const server = app().listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
      socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      await expect.poll(() => exporter.getFinishedSpans().length, { timeout: 2_000 }).toBe(1);
      expect(exporter.getFinishedSpans()[0]?.attributes["error.type"]).toBe("connection_closed");
    } finally {
      server.close();
    }
  });
});
