import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DormantClient } from "./client.ts";
import { DormantApiError } from "./errors.ts";
import { delayBeforeRetry, DEFAULT_RETRY_POLICY, retryAfterMs } from "./retry.ts";
import { errorEnvelope, ScriptedServer, successEnvelope } from "./test-support/scripted-server.ts";

const CT600 = {
  company_number: "00000001",
  utr: "1234567890",
  period_end: "2026-03-31",
  credentials: { government_gateway_id: "AGENT-01", government_gateway_password: "secret" },
};
const SUBMITTED = { filing_id: "fil_abc", status: "submitted", period_split: false };

describe("retries against a real HTTP server", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server?.close());

  const client = (retry = {}) =>
    new DormantClient({ apiKey: "api_test_k_s", baseUrl: server.baseUrl, retry: { baseDelayMs: 20, ...retry } });

  it("sends a submit again after 429, 502 and 503 with the same generated Idempotency-Key and body", async () => {
    server.answer(
      { status: 429, headers: { "retry-after": "0" }, body: errorEnvelope("RATE_LIMIT_EXCEEDED", "slow down") },
      { status: 502, body: errorEnvelope("TAX_UNAVAILABLE", "tax authority unavailable") },
      { status: 503, body: errorEnvelope("SERVICE_UNAVAILABLE", "filing service unavailable") },
      { status: 202, body: successEnvelope(SUBMITTED) },
    );
    const answer = await client().filings.submitCt600(CT600);
    expect(answer).toEqual(SUBMITTED);
    expect(server.received).toHaveLength(4);
    const keys = server.received.map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(server.received.map((request) => [request.method, request.url, JSON.parse(request.body)])).toEqual(
      Array(4).fill(["POST", "/api/v1/filings/ct600", CT600]),
    );
    expect(server.received.every((request) => request.headers["x-api-key"] === "api_test_k_s")).toBe(true);
  });

  it("uses the caller's Idempotency-Key, and each submit without one gets a new key", async () => {
    server.answer({ status: 202, body: successEnvelope(SUBMITTED) });
    await client().filings.submitAccounts(
      { company_number: "00000001", period_end: "2026-03-31", credentials: { company_auth_code: "A1B2C3" } },
      { idempotencyKey: "my-key-1" },
    );
    await client().filings.submitCt600(CT600);
    await client().filings.submitCt600(CT600);
    const keys = server.received.map((request) => request.headers["idempotency-key"]);
    expect(keys[0]).toBe("my-key-1");
    expect(keys[1]).not.toBe(keys[2]);
  });

  it("waits the Retry-After seconds before the next attempt", async () => {
    server.answer(
      { status: 503, headers: { "retry-after": "1" }, body: errorEnvelope("SERVICE_UNAVAILABLE", "down") },
      { status: 200, body: successEnvelope({ id: 1 }) },
    );
    await client().account.get();
    const [first, second] = server.received;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_000);
    expect(second!.at - first!.at).toBeLessThan(1_500);
  });

  it("honours a Retry-After given as an HTTP date", async () => {
    const when = new Date(Math.ceil((Date.now() + 1_500) / 1000) * 1000);
    server.answer(
      { status: 429, headers: { "retry-after": when.toUTCString() }, body: errorEnvelope("RATE_LIMIT_EXCEEDED", "limit") },
      { status: 200, body: successEnvelope({ id: 1 }) },
    );
    await client().account.get();
    expect(server.received[1]!.at).toBeGreaterThanOrEqual(when.getTime() - 5);
  });

  it("stops after maxAttempts and throws the last answer as a DormantApiError", async () => {
    server.answer({
      status: 502,
      headers: { "retry-after": "0" },
      body: errorEnvelope("REGISTRY_UNAVAILABLE", "registry down", { requestId: "req-1" }),
    });
    const error = await client({ maxAttempts: 3 })
      .filings.submitAccounts(
        { company_number: "00000001", period_end: "2026-03-31", credentials: { company_auth_code: "A1B2C3" } },
        { idempotencyKey: "k-502" },
      )
      .catch((e: unknown) => e);
    expect(server.received).toHaveLength(3);
    expect(error).toBeInstanceOf(DormantApiError);
    expect(error).toMatchObject({
      status: 502,
      code: "REGISTRY_UNAVAILABLE",
      requestId: "req-1",
      retryAfterSeconds: 0,
      idempotencyKey: "k-502",
    });
  });

  it("does not start a wait that would pass maxTotalWaitMs", async () => {
    server.answer({ status: 429, headers: { "retry-after": "30" }, body: errorEnvelope("RATE_LIMIT_EXCEEDED", "limit") });
    const started = Date.now();
    const error = await client({ maxTotalWaitMs: 5_000 })
      .account.get()
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.received).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMIT_EXCEEDED", retryAfterSeconds: 30 });
  });

  it("retries 409 IDEMPOTENCY_KEY_IN_USE but never another 4xx", async () => {
    server.answer(
      { status: 409, headers: { "retry-after": "0" }, body: errorEnvelope("IDEMPOTENCY_KEY_IN_USE", "still running") },
      { status: 202, body: successEnvelope(SUBMITTED) },
    );
    await client().filings.submitCt600(CT600, { idempotencyKey: "in-use" });
    expect(server.received).toHaveLength(2);

    for (const [status, code] of [
      [409, "IDEMPOTENCY_KEY_CONFLICT"],
      [400, "VALIDATION_ERROR"],
      [402, "INSUFFICIENT_BALANCE"],
      [500, "INTERNAL_ERROR"],
    ] as const) {
      server.answer({ status, body: errorEnvelope(code, "no") });
      await expect(client().filings.submitCt600(CT600)).rejects.toMatchObject({ status, code });
      expect(server.received).toHaveLength(1);
    }
  });
});

describe("retry waits", () => {
  it("reads Retry-After as seconds or an HTTP date, and nothing else", () => {
    const now = Date.parse("2026-11-27T12:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7_000);
    expect(retryAfterMs("Fri, 27 Nov 2026 12:00:03 GMT", now)).toBe(3_000);
    expect(retryAfterMs("Fri, 27 Nov 2026 11:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("adds up to 10% jitter to Retry-After and backs off exponentially, jittered and capped, without it", () => {
    const asked = new Response(null, { status: 503, headers: { "retry-after": "2" } });
    expect(delayBeforeRetry(asked, 1, DEFAULT_RETRY_POLICY, () => 0)).toBe(2_000);
    expect(delayBeforeRetry(asked, 1, DEFAULT_RETRY_POLICY, () => 1)).toBe(2_200);
    const bare = new Response(null, { status: 502 });
    expect([1, 2, 3].map((attempt) => delayBeforeRetry(bare, attempt, DEFAULT_RETRY_POLICY, () => 1))).toEqual([500, 1_000, 2_000]);
    expect(delayBeforeRetry(bare, 3, DEFAULT_RETRY_POLICY, () => 0)).toBe(1_000);
    expect(delayBeforeRetry(bare, 10, DEFAULT_RETRY_POLICY, () => 1)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
  });
});
