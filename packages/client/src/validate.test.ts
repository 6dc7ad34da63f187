import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DormantClient } from "./client.ts";
import { DormantApiError } from "./errors.ts";
import { errorEnvelope, ScriptedServer, successEnvelope } from "./test-support/scripted-server.ts";
import type { AccountsSubmitRequest, Ct600SubmitRequest, Ct600ValidationResult } from "./types.ts";

const CT600: Ct600SubmitRequest = {
  company_number: "00000001",
  utr: "1234567890",
  period_end: "2026-03-31",
  credentials: { government_gateway_id: "AGENT-01", government_gateway_password: "secret" },
};
const ACCOUNTS: AccountsSubmitRequest = {
  company_number: "00000001",
  period_end: "2026-03-31",
  credentials: { company_auth_code: "A1B2C3" },
};

const REPORT: Ct600ValidationResult = {
  valid: false,
  derived_values: {
    company_name: "SANDBOX LTD",
    period_start: "2025-04-01",
    is_first_year: false,
    declarant_name: "A DIRECTOR",
    declarant_status: "Director",
  },
  period_split: false,
  parts: [{ part_number: 1, period: { start: "2025-04-01", end: "2026-03-31" } }],
  problems: [{ field: "return", code: "AUTHORITY_RULE", message: "rule broken", rule: 9001, part_number: 1 }],
  checks: [
    { name: "contract", passed: true },
    { name: "business_rules", passed: true },
    { name: "ct600_schema", part_number: 1, passed: true },
    { name: "hmrc_business_rules", part_number: 1, passed: false },
  ],
  sandbox: true,
};

describe("validation against a real HTTP server", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await ScriptedServer.start();
  });
  afterAll(() => server?.close());

  const client = (retry = {}) =>
    new DormantClient({ apiKey: "api_test_k_s", baseUrl: server.baseUrl, retry: { baseDelayMs: 10, ...retry } });

  it("posts the submit body to the validate path without an Idempotency-Key and answers the report", async () => {
    server.answer({ status: 200, body: successEnvelope(REPORT) });
    expect(await client().filings.validateCt600(CT600)).toEqual(REPORT);
    const accountsReport = { ...REPORT, valid: true, problems: [], checks: [{ name: "contract", passed: true }] };
    server.answer({ status: 200, body: successEnvelope(accountsReport) });
    expect(await client().filings.validateAccounts(ACCOUNTS)).toEqual(accountsReport);

    server.answer({ status: 200, body: successEnvelope(REPORT) });
    await client().filings.validateCt600(CT600);
    await client().filings.validateAccounts(ACCOUNTS);
    expect(server.received.map((request) => [request.method, request.url, JSON.parse(request.body)])).toEqual([
      ["POST", "/api/v1/filings/ct600/validate", CT600],
      ["POST", "/api/v1/filings/accounts/validate", ACCOUNTS],
    ]);
    expect(server.received.every((request) => request.headers["idempotency-key"] === undefined)).toBe(true);
    expect(server.received.every((request) => request.headers["x-api-key"] === "api_test_k_s")).toBe(true);
  });

  it("sends a validation again after 429, 502 and 503, waiting the Retry-After", async () => {
    server.answer(
      { status: 429, headers: { "retry-after": "0" }, body: errorEnvelope("RATE_LIMIT_EXCEEDED", "slow down") },
      { status: 502, headers: { "retry-after": "1" }, body: errorEnvelope("TAX_UNAVAILABLE", "tax authority unavailable") },
      { status: 503, body: errorEnvelope("SERVICE_UNAVAILABLE", "filing service unavailable") },
      { status: 200, body: successEnvelope(REPORT) },
    );
    expect(await client().filings.validateCt600(CT600)).toEqual(REPORT);
    expect(server.received).toHaveLength(4);
    expect(server.received[2]!.at - server.received[1]!.at).toBeGreaterThanOrEqual(1_000);
    expect(new Set(server.received.map((request) => `${request.url} ${request.body}`)).size).toBe(1);
  });

  it("throws the last retryable answer, and any other failure at once, as a DormantApiError", async () => {
    server.answer({ status: 503, headers: { "retry-after": "0" }, body: errorEnvelope("TAX_UNAVAILABLE", "down", { requestId: "req-v" }) });
    const error = await client({ maxAttempts: 2 })
      .filings.validateCt600(CT600)
      .catch((e: unknown) => e);
    expect(server.received).toHaveLength(2);
    expect(error).toBeInstanceOf(DormantApiError);
    expect(error).toMatchObject({
      status: 503,
      code: "TAX_UNAVAILABLE",
      requestId: "req-v",
      retryAfterSeconds: 0,
      idempotencyKey: undefined,
    });

    server.answer({ status: 401, body: errorEnvelope("INVALID_KEY", "bad key") });
    await expect(client().filings.validateAccounts(ACCOUNTS)).rejects.toMatchObject({ status: 401, code: "INVALID_KEY" });
    expect(server.received).toHaveLength(1);
  });
});
