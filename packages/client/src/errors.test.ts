import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DormantClient } from "./client.ts";
import { DormantApiError } from "./errors.ts";
import { errorEnvelope, ScriptedServer } from "./test-support/scripted-server.ts";

describe("DormantApiError from real answers", () => {
  let server: ScriptedServer;
  let client: DormantClient;
  beforeAll(async () => {
    server = await ScriptedServer.start();
    client = new DormantClient({ apiKey: "api_live_k_s", baseUrl: `${server.baseUrl}/api/v1/`, retry: { maxAttempts: 1 } });
  });
  afterAll(() => server?.close());

  it("carries the envelope's status, code, message, details and request id", async () => {
    const details = [{ field: "balance", message: "short", required: "20.00", available: "10.00" }];
    server.answer({
      status: 402,
      body: errorEnvelope("INSUFFICIENT_BALANCE", "Balance below the fee", { details, requestId: "6a0e3c52-1111-4222-8333-444444444444" }),
    });
    const error = await client.filings
      .submitCt600(
        {
          company_number: "00000001",
          utr: "1234567890",
          period_end: "2026-03-31",
          credentials: { government_gateway_id: "a", government_gateway_password: "b" },
        },
        { idempotencyKey: "k1" },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DormantApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "DormantApiError",
      status: 402,
      code: "INSUFFICIENT_BALANCE",
      message: "402 INSUFFICIENT_BALANCE: Balance below the fee",
      details,
      requestId: "6a0e3c52-1111-4222-8333-444444444444",
      idempotencyKey: "k1",
      retryAfterSeconds: undefined,
    });
    expect(server.received[0]!.url).toBe("/api/v1/filings/ct600");
  });

  it("names the filing of a submit in doubt (502 with details field filing_id), and of FILING_EXISTS", async () => {
    const inDoubt = [{ field: "filing_id", message: "settled", filing_id: "fil_doubt1", filing_status: "pending", in_doubt: true }];
    server.answer({
      status: 502,
      headers: { "retry-after": "30" },
      body: errorEnvelope("TAX_UNAVAILABLE", "in doubt", { details: inDoubt }),
    });
    const body = {
      company_number: "00000001",
      utr: "1234567890",
      period_end: "2026-03-31",
      credentials: { government_gateway_id: "a", government_gateway_password: "b" },
    };
    await expect(client.filings.submitCt600(body, { idempotencyKey: "k-doubt" })).rejects.toMatchObject({
      status: 502,
      code: "TAX_UNAVAILABLE",
      filingId: "fil_doubt1",
      inDoubt: true,
      retryAfterSeconds: 30,
      idempotencyKey: "k-doubt",
    });
    server.answer({
      status: 409,
      body: errorEnvelope("FILING_EXISTS", "exists", {
        details: [{ field: "filing_id", message: "the existing filing", filing_id: "fil_old" }],
      }),
    });
    await expect(client.filings.submitCt600(body, { idempotencyKey: "k-exists" })).rejects.toMatchObject({
      filingId: "fil_old",
      inDoubt: false,
    });
  });

  it("has empty details when the envelope has none, and the request id of the header when the body has none", async () => {
    server.answer({
      status: 404,
      headers: { "x-request-id": "from-header" },
      body: { success: false, error: { code: "FILING_NOT_FOUND", message: "Filing not found" } },
    });
    await expect(client.filings.get("fil_x")).rejects.toMatchObject({
      status: 404,
      code: "FILING_NOT_FOUND",
      details: [],
      requestId: "from-header",
    });
  });

  it("is UNEXPECTED_RESPONSE with the status and the start of the text when the body is not the envelope", async () => {
    server.answer({ status: 502, headers: { "content-type": "text/html", "x-request-id": "proxy-1" }, body: "<html>Bad Gateway</html>" });
    const error = await client.account.get().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: "UNEXPECTED_RESPONSE", requestId: "proxy-1", details: [] });
    expect((error as Error).message).toContain("<html>Bad Gateway</html>");
  });

  it("is UNEXPECTED_RESPONSE for a 200 that is not JSON", async () => {
    server.answer({ status: 204 });
    await expect(client.account.get()).rejects.toMatchObject({ status: 204, code: "UNEXPECTED_RESPONSE" });
  });
});
