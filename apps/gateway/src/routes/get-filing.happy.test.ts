import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_COMPANIES } from "@dormant/contracts";
import { accountsBody, ct600Body, get, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

const EXPECTED_ERRORS: Record<string, string> = {
  "00000002": "TAX_UTR_MISMATCH",
  "00000003": "PERIOD_ALREADY_FILED",
  "00000004": "GATEWAY_TIMEOUT",
  SC000002: "COMPANY_DISSOLVED",
  NI000002: "AUTH_CODE_INVALID",
};

describe("GET /filings/{filing_id} for sandbox filings", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "get_filing_happy" });
  });
  afterAll(() => gw?.close());

  async function sandboxId(type: "ct600" | "accounts", company: string): Promise<string> {
    const body = type === "ct600" ? ct600Body({ company_number: company }) : accountsBody({ company_number: company });
    const response = await submit(gw.app, type, gw.account.testKey, body);
    expect(response.status).toBe(202);
    return response.body.data.filing_id as string;
  }

  it.each(Object.entries(SANDBOX_COMPANIES))("company %s: the final status at once, with its fields", async (company, scenario) => {
    const filingId = await sandboxId("ct600", company);
    const response = await get(gw.app, `/filings/${filingId}`, gw.account.testKey);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.request_id).toBeUndefined();
    const data = response.body.data;
    expect(data).toMatchObject({
      filing_id: filingId,
      filing_type: "ct600",
      company_number: company,
      status: scenario.outcome,
      sandbox: true,
      tax_status: scenario.outcome,
      tax_correlation_id: expect.stringMatching(/^SANDBOX-CORR-[0-9A-F]{32}$/),
    });
    if (scenario.outcome === "accepted") {
      expect(data.tax_iru_number).toMatch(/^SANDBOX-IRU-[0-9A-F]{16}$/);
      expect(data.error).toBeUndefined();
    } else {
      expect(data.tax_iru_number).toBeUndefined();
      expect(data.error).toEqual({ code: EXPECTED_ERRORS[company], message: expect.any(String) });
    }
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
  });

  it("accepts any other company number", async () => {
    const filingId = await sandboxId("ct600", "OC123456");
    expect((await get(gw.app, `/filings/${filingId}`, gw.account.testKey)).body.data).toMatchObject({
      status: "accepted",
      company_number: "OC123456",
    });
  });

  it("answers the same references on every poll", async () => {
    const filingId = await sandboxId("ct600", "00000001");
    const first = await get(gw.app, `/filings/${filingId}`, gw.account.testKey);
    const second = await get(gw.app, `/filings/${filingId}`, gw.account.testKey);
    expect(second.body.data).toEqual(first.body.data);
  });

  it("gives accounts filings their registry status and submission number too", async () => {
    const accepted = await get(gw.app, `/filings/${await sandboxId("accounts", "NI000001")}`, gw.account.testKey);
    expect(accepted.body.data).toMatchObject({
      filing_type: "accounts",
      status: "accepted",
      registry_status: "accepted",
      registry_submission_number: expect.stringMatching(/^SANDBOX-SUB-[0-9A-F]{16}$/),
    });
    const rejected = await get(gw.app, `/filings/${await sandboxId("accounts", "NI000002")}`, gw.account.testKey);
    expect(rejected.body.data).toMatchObject({ status: "rejected", registry_status: "rejected", error: { code: "AUTH_CODE_INVALID" } });
  });

  it("answers a well-formed sandbox id that was never submitted (nothing is stored: the id is the filing)", async () => {
    const response = await get(gw.app, "/filings/fil_test_ct600_SC000002_0123456789abcdef", gw.account.testKey);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: "rejected", error: { code: "COMPANY_DISSOLVED" } });
  });
});
