import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { createHttpMetrics, createMetricsRegistry, currentRequestContext } from "@dormant/service-kit";
import express, { type ErrorRequestHandler } from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../test-support/captured-logs.ts";
import { accessLog } from "./access-log.ts";
import { compose } from "./compose.ts";
import { requestIdMiddleware } from "./request-id.ts";

const API_KEY = "api_test_AAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
const PASSWORD = "s3cret-Gateway-Passw0rd";
const IDEMPOTENCY_KEY = "idem-7f1a2b3c4d5e";

interface Line {
  level: string;
  msg: string;
  request_id?: string;
  req?: { method: string; path: string };
  res?: { status: number };
  responseTime?: number;
  err?: { message: string };
}

function setup() {
  const logs = captureLogs();
  const registry = createMetricsRegistry("gateway-test");
  const app = express();
  app.use(compose([requestIdMiddleware(), accessLog({ logger: logs.logger, metrics: createHttpMetrics(registry) })]));
  app.post("/things/:id", express.json(), (req, res) => {
    // Any other line of the request carries the same id (request context).
    logs.logger.info({ seen: currentRequestContext()?.requestId }, "handler ran");
    res.status(req.params.id === "bad" ? 422 : 201).json({ ok: true });
  });
  app.get("/boom", () => {
    throw new Error("kaput");
  });
  app.get("/slow", (_req, res) => void setTimeout(() => res.json({ late: true }), 300));
  const renderErrors: ErrorRequestHandler = (_error, _req, res, _next) => void res.status(500).json({ error: "internal" });
  app.use(renderErrors);
  const lines = () =>
    logs
      .text()
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Line);
  const accessLines = () => lines().filter((line) => line.msg.startsWith("request "));
  return { app, logs, registry, lines, accessLines };
}

describe("access log", () => {
  it("writes one line per request with its id, method, path, status and duration, at the level of its status", async () => {
    const { app, registry, lines, accessLines } = setup();
    const ok = await request(app).post("/things/42?limit=5").send({ a: 1 });
    const refused = await request(app).post("/things/bad").send({});
    const failed = await request(app).get("/boom");

    expect(accessLines()).toEqual([
      {
        level: "info",
        msg: "request completed",
        request_id: ok.headers["x-request-id"],
        req: { method: "POST", path: "/things/42" },
        res: { status: 201 },
        responseTime: expect.any(Number),
        service: "gateway-test",
        version: expect.any(String),
        time: expect.any(String),
      },
      expect.objectContaining({
        level: "warn",
        msg: "request completed",
        request_id: refused.headers["x-request-id"],
        res: { status: 422 },
      }),
      expect.objectContaining({
        level: "error",
        msg: "request errored",
        request_id: failed.headers["x-request-id"],
        req: { method: "GET", path: "/boom" },
        res: { status: 500 },
        err: { message: "failed with status code 500" },
      }),
    ]);
    // The handler's own line carries the id too.
    const handlerLine = lines().find((line) => line.msg === "handler ran") as Line & { seen: string };
    expect(handlerLine.request_id).toBe(ok.headers["x-request-id"]);
    expect(handlerLine.seen).toBe(ok.headers["x-request-id"]);

    const metrics = await registry.metrics();
    expect(metrics).toContain('http_requests_total{method="POST",route="/things/:id",status="201",service="gateway-test"} 1');
    expect(metrics).toContain('http_requests_total{method="POST",route="/things/:id",status="422",service="gateway-test"} 1');
    expect(metrics).toContain('http_requests_total{method="GET",route="/boom",status="500",service="gateway-test"} 1');
    expect(metrics).toContain(
      'http_request_duration_seconds_count{service="gateway-test",method="POST",route="/things/:id",status="201"} 1',
    );
  });

  it("never writes a header, the query string or the body: no API key, Idempotency-Key or password", async () => {
    const { app, logs, accessLines } = setup();
    await request(app)
      .post(`/things/1?api_key=${API_KEY}&password=${PASSWORD}`)
      .set("X-API-Key", API_KEY)
      .set("Authorization", `Bearer ${API_KEY}`)
      .set("Idempotency-Key", IDEMPOTENCY_KEY)
      .set("Cookie", `session=${PASSWORD}`)
      .send({ credentials: { government_gateway_id: "GW-USER-1", government_gateway_password: PASSWORD } });
    expect(accessLines()).toHaveLength(1);
    const text = logs.text();
    expect(text).toContain('"path":"/things/1"');
    for (const secret of [API_KEY, PASSWORD, IDEMPOTENCY_KEY, "api_key", "GW-USER-1"]) expect(text).not.toContain(secret);
    expect(Object.keys(accessLines()[0]!).sort()).toEqual([
      "level",
      "msg",
      "req",
      "request_id",
      "res",
      "responseTime",
      "service",
      "time",
      "version",
    ]);
  });

  it("logs a request whose client went away before the answer as aborted, once, and does not count it as answered", async () => {
    const { app, registry, accessLines } = setup();
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve) => {
        const call = httpRequest({ host: "127.0.0.1", port, path: "/slow", method: "GET" });
        call.on("error", () => resolve());
        call.end();
        setTimeout(() => {
          call.destroy();
          resolve();
        }, 100);
      });
      // The handler answers into a closed connection 300 ms after the request.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(accessLines()).toEqual([
      expect.objectContaining({ msg: "request aborted", req: { method: "GET", path: "/slow" }, request_id: expect.any(String) }),
    ]);
    expect(await registry.metrics()).not.toContain('route="/slow"');
  });
});
