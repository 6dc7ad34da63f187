import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "../test-support/captured-logs.ts";
import { ct600Body, idempotencyKey, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const PASSWORD = "s3cret-Gateway-Passw0rd";

describe("POST /filings/ct600 security", () => {
  let gw: TestGateway;
  const logs = captureLogs();
  beforeAll(async () => {
    gw = await createTestGateway({ label: "ct600_security", logger: logs.logger });
  });
  afterAll(() => gw?.close());

  it("needs a key before anything else: 401 AUTH_REQUIRED or INVALID_KEY, even for an invalid body", async () => {
    const none = await submit(gw.app, "ct600", "", { nonsense: true });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("AUTH_REQUIRED");
    const forged = await submit(gw.app, "ct600", `${gw.account.testKey.slice(0, -4)}AAAA`, ct600Body());
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("INVALID_KEY");
  });

  it("carries the X-RateLimit-* headers on accepted and refused submits of both modes", async () => {
    for (const key of [gw.account.liveKey, gw.account.testKey]) {
      for (const body of [ct600Body(), ct600Body({ utr: "x" })]) {
        const response = await submit(gw.app, "ct600", key, body);
        for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
      }
    }
  });

  it("never logs the gateway password, the API key or the Idempotency-Key", async () => {
    const key = idempotencyKey();
    const body = ct600Body({ credentials: { government_gateway_id: "GW-USER-1", government_gateway_password: PASSWORD } });
    await submit(gw.app, "ct600", gw.account.testKey, body, key);
    await submit(gw.app, "ct600", gw.account.liveKey, body, key);
    await submit(gw.app, "ct600", gw.account.liveKey, { ...body, utr: "bad" }, key);
    const text = logs.text();
    expect(text).toContain("request completed");
    expect(text).toContain("POST");
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(gw.account.testKey);
    expect(text).not.toContain(gw.account.liveKey);
    expect(text).not.toContain(key);
  });

  it("puts the request id on every log line of a request", async () => {
    const response = await submit(gw.app, "ct600", gw.account.liveKey, ct600Body());
    const lines = logs
      .text()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { request_id?: string; msg: string });
    const ours = lines.filter((line) => line.request_id === response.headers["x-request-id"]);
    expect(ours.map((line) => line.msg)).toEqual(["request failed", "request errored"]);
    const accessLines = lines.filter((line) => line.msg === "request completed" || line.msg === "request errored");
    expect(accessLines.length).toBeGreaterThan(5);
    expect(accessLines.every((line) => typeof line.request_id === "string")).toBe(true);
  });
});
