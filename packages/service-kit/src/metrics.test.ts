import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createHttpMetrics, createMetricsRegistry, httpMetricsMiddleware } from "./metrics.ts";

describe("HTTP metrics", () => {
  it("counts and times every answered request by method, route template and status", async () => {
    const registry = createMetricsRegistry("svc");
    const app = express();
    app.use(httpMetricsMiddleware(registry));
    app.get("/things/:id", (req, res) => void res.status(req.params.id === "missing" ? 404 : 200).json({ ok: true }));
    for (const id of ["1", "2", "3", "missing"]) await request(app).get(`/things/${id}`);
    await request(app).post("/things/1");
    await request(app).get("/nowhere");

    const text = await registry.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/things/:id",status="200",service="svc"} 3');
    expect(text).toContain('http_requests_total{method="GET",route="/things/:id",status="404",service="svc"} 1');
    expect(text).toContain('http_requests_total{method="POST",route="unmatched",status="404",service="svc"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status="404",service="svc"} 1');
    expect(text).toContain('http_request_duration_seconds_count{service="svc",method="GET",route="/things/:id",status="200"} 3');
    expect(text).toContain('http_request_duration_seconds_bucket{le="10",service="svc",method="GET",route="/things/:id",status="200"} 3');
    expect(text).not.toContain("/things/1");
  });

  it("records durations given to record(), and keeps counting after the registry is reset", async () => {
    const registry = createMetricsRegistry("svc");
    const metrics = createHttpMetrics(registry);
    const req = { method: "GET", baseUrl: "/api", route: { path: "/x" } } as unknown as express.Request;
    const res = { statusCode: 200 } as unknown as express.Response;
    metrics.record(req, res, 0.002);
    metrics.record(req, res, 0.3);
    let text = await registry.metrics();
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",service="svc",method="GET",route="/api/x",status="200"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.5",service="svc",method="GET",route="/api/x",status="200"} 2');
    expect(text).toContain('http_request_duration_seconds_sum{service="svc",method="GET",route="/api/x",status="200"} 0.302');
    expect(text).toContain('http_requests_total{method="GET",route="/api/x",status="200",service="svc"} 2');

    registry.resetMetrics();
    metrics.record(req, res, 0.001);
    text = await registry.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/api/x",status="200",service="svc"} 1');
    expect(text).toContain('http_request_duration_seconds_count{service="svc",method="GET",route="/api/x",status="200"} 1');
  });
});
