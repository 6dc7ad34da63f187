import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createOpsRouter } from "./health.ts";
import { createMetricsRegistry, httpMetricsMiddleware } from "./metrics.ts";

describe("ops endpoints", () => {
  it("reports liveness, readiness with failing checks, and metrics by route template", async () => {
    const registry = createMetricsRegistry("svc");
    let accepting = true;
    let redisUp = true;
    const app = express();
    app.use(httpMetricsMiddleware(registry));
    app.get("/things/:id", (_req, res) => void res.json({ ok: true }));
    app.use(
      createOpsRouter({
        registry,
        isAcceptingWork: () => accepting,
        checks: {
          redis: async () => {
            if (!redisUp) throw new Error("connection refused");
          },
          slow: () => new Promise((resolve) => setTimeout(resolve, 5)),
        },
      }),
    );
    expect((await request(app).get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await request(app).get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ redis: "ok", slow: "ok" });
    expect(ready.body.pid).toBe(process.pid);

    redisUp = false;
    const notReady = await request(app).get("/readyz");
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks.redis).toBe("connection refused");

    redisUp = true;
    accepting = false;
    expect((await request(app).get("/readyz")).status).toBe(503);

    await request(app).get("/things/42");
    const metrics = await request(app).get("/metrics");
    expect(metrics.text).toContain('http_requests_total{method="GET",route="/things/:id",status="200",service="svc"} 1');
    expect(metrics.text).not.toContain("/things/42");
    expect(metrics.text).toContain("process_cpu_user_seconds_total");
  });
});
