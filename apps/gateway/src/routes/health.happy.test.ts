import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("GET /health", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "health" });
  });
  afterAll(() => gw?.close());

  it("answers without a key, outside the envelope, version 1.0", async () => {
    const response = await request(gw.app).get("/api/v1/health");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok", version: "1.0", timestamp: expect.any(String) });
    expect(Number.isNaN(Date.parse(response.body.timestamp))).toBe(false);
    expect(response.headers["x-request-id"]).toBeDefined();
  });
});
