import fc from "fast-check";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ct600Body, idempotencyKey } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("HTTP layer: envelope, request ids, malformed input", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "http_layer" });
  });
  afterAll(() => gw?.close());

  it("gives every response an X-Request-Id, and error envelopes the same request_id", async () => {
    const health = await request(gw.app).get("/api/v1/health");
    expect(health.headers["x-request-id"]).toMatch(UUID);
    const missing = await request(gw.app).get("/api/v1/filings");
    expect(missing.status).toBe(401);
    expect(missing.headers["x-request-id"]).toMatch(UUID);
    expect(missing.body).toEqual({
      success: false,
      error: { code: "AUTH_REQUIRED", message: expect.any(String) },
      request_id: missing.headers["x-request-id"],
    });
  });

  it("keeps a caller's uuid request id and replaces anything else", async () => {
    const own = "0b6f1c52-8a1e-4c3e-9d5e-7f1a2b3c4d5e";
    expect((await request(gw.app).get("/api/v1/health").set("X-Request-Id", own)).headers["x-request-id"]).toBe(own);
    const replaced = await request(gw.app).get("/api/v1/health").set("X-Request-Id", "<script>alert(1)</script>");
    expect(replaced.headers["x-request-id"]).toMatch(UUID);
    expect(replaced.headers["x-request-id"]).not.toContain("script");
  });

  it("answers unknown routes and methods 404 NOT_FOUND in the envelope", async () => {
    for (const response of [
      await request(gw.app).get("/api/v1/nothing-here"),
      await request(gw.app).delete("/api/v1/filings").set("X-API-Key", gw.account.liveKey),
      await request(gw.app).get("/elsewhere"),
      await request(gw.app).options("/api/v1/filings").set("X-API-Key", gw.account.liveKey),
      await request(gw.app).options("/api/v1/health"),
      await request(gw.app).options("/docs"),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ success: false, error: { code: "NOT_FOUND" }, request_id: expect.stringMatching(UUID) });
    }
  });

  it("answers malformed JSON 400 VALIDATION_ERROR without echoing the body", async () => {
    for (const key of [gw.account.liveKey, gw.account.testKey]) {
      const response = await request(gw.app)
        .post("/api/v1/filings/ct600")
        .set("X-API-Key", key)
        .set("Idempotency-Key", idempotencyKey())
        .set("Content-Type", "application/json")
        .send('{"company_number": "00000001", "credentials": {"government_gateway_password": "hunter2"');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        success: false,
        error: { code: "VALIDATION_ERROR", details: [{ field: "body", message: "is not valid JSON" }] },
      });
      expect(response.text).not.toContain("hunter2");
    }
  });

  it("answers a body over the limit 413 PAYLOAD_TOO_LARGE", async () => {
    const response = await request(gw.app)
      .post("/api/v1/filings/ct600")
      .set("X-API-Key", gw.account.testKey)
      .set("Idempotency-Key", idempotencyKey())
      .send(ct600Body({ company: { name: "x".repeat(40_000) } }));
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ success: false, error: { code: "PAYLOAD_TOO_LARGE" }, request_id: expect.stringMatching(UUID) });
  });

  it("answers a body that is not JSON 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const response = await request(gw.app)
      .post("/api/v1/filings/ct600")
      .set("X-API-Key", gw.account.testKey)
      .set("Idempotency-Key", idempotencyKey())
      .set("Content-Type", "text/plain")
      .send("company_number=00000001");
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it.each([
    ["an array", "[]"],
    ["a string", '"ct600"'],
    ["null", "null"],
  ])("answers %s as the body 400 VALIDATION_ERROR, never 500", async (_name, text) => {
    const response = await request(gw.app)
      .post("/api/v1/filings/ct600")
      .set("X-API-Key", gw.account.testKey)
      .set("Idempotency-Key", idempotencyKey())
      .set("Content-Type", "application/json")
      .send(text);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "body", message: "must be an object" }] });
  });

  it("answers a submit without a body 400, naming the body", async () => {
    const response = await request(gw.app)
      .post("/api/v1/filings/ct600")
      .set("X-API-Key", gw.account.testKey)
      .set("Idempotency-Key", idempotencyKey());
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: "body", message: "is required" }]);
  });

  it("answers unreadable requests 4xx, never 500: bad percent-encoding, a body that does not decompress", async () => {
    for (const path of ["/api/v1/filings/%E0%A4%A", "/api/v1/filings/%", "/api/v1/filings/fil_x/documents/%ZZ"]) {
      const response = await request(gw.app).get(path).set("X-API-Key", gw.account.testKey);
      expect(response.status, path).toBe(400);
      expect(response.body.error).toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ field: "request", message: "could not be read" }],
      });
    }
    const compressed = await request(gw.app)
      .post("/api/v1/filings/ct600")
      .set("X-API-Key", gw.account.testKey)
      .set("Idempotency-Key", idempotencyKey())
      .set("Content-Type", "application/json")
      .set("Content-Encoding", "gzip")
      .send("{}");
    expect(compressed.status).toBe(400);
    const unknownEncoding = await request(gw.app)
      .post("/api/v1/filings/ct600")
      .set("X-API-Key", gw.account.testKey)
      .set("Idempotency-Key", idempotencyKey())
      .set("Content-Type", "application/json")
      .set("Content-Encoding", "x-unknown")
      .send("{}");
    expect(unknownEncoding.status).toBe(415);
  });

  it("answers any JSON body 202 or 400 in the sandbox, never a 5xx", async () => {
    const fields = fc.record(
      {
        company_number: fc.oneof(fc.constantFrom("00000001", "SC000002"), fc.string()),
        utr: fc.oneof(fc.constant("1234567890"), fc.jsonValue()),
        period_end: fc.oneof(fc.constant("2024-03-31"), fc.string()),
        period: fc.jsonValue(),
        declarant: fc.oneof(fc.record({ name: fc.string(), status: fc.string() }, { requiredKeys: [] }), fc.jsonValue()),
        credentials: fc.oneof(fc.record({ government_gateway_id: fc.string(), government_gateway_password: fc.string() }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fields, fc.jsonValue()), async (body) => {
        const response = await request(gw.app)
          .post("/api/v1/filings/ct600")
          .set("X-API-Key", gw.account.testKey)
          .set("Idempotency-Key", idempotencyKey())
          .set("Content-Type", "application/json")
          .send(JSON.stringify(body));
        expect([202, 400]).toContain(response.status);
        expect(response.body.success).toBe(response.status === 202);
      }),
      { numRuns: 150 },
    );
  });

  it("sends no x-powered-by and conservative security headers", async () => {
    const response = await request(gw.app).get("/api/v1/health");
    expect(response.headers["x-powered-by"]).toBeUndefined();
    expect(response.headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    });
  });

  it("serves /healthz, /readyz (Redis, Postgres, RabbitMQ) and /metrics outside /api/v1 without a key", async () => {
    expect((await request(gw.app).get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await request(gw.app).get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", pid: process.pid, checks: { redis: "ok", postgres: "ok", rabbitmq: "ok" } });
    const metrics = await request(gw.app).get("/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('http_requests_total{method="GET",route="/api/v1/health",status="200"');
  });
});
