import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_COMPANIES } from "@dormant/contracts";
import { accountsBody, idempotencyKey, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

describe("POST /filings/accounts with a test key (sandbox)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "accounts_happy" });
  });
  afterAll(() => gw?.close());

  it("answers 202 submitted with a sandbox filing id, the expected outcome and the request id", async () => {
    const response = await submit(gw.app, "accounts", gw.account.testKey, accountsBody({ company_number: "SC000001" }));
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      success: true,
      data: {
        filing_id: expect.stringMatching(/^fil_test_accounts_SC000001_[0-9a-f]{16}$/),
        status: "submitted",
        sandbox: true,
        message: expect.stringContaining("company registry"),
        expected_outcome: "accepted",
      },
      request_id: response.headers["x-request-id"],
    });
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
  });

  it("accepts every override, with a balanced sheet", async () => {
    const body = accountsBody({
      company: { name: "Acme Dormant Holdings Limited", entity_type: "ltd" },
      period: { start: "2023-04-01", is_first_year: false },
      approval: { date: "2024-06-30", director_name: "Ada Lovelace", director_position: "Director" },
      balance_sheet: { share_capital: 100, cash: 100, creditors: 0, profit_loss_account: 0 },
    });
    expect((await submit(gw.app, "accounts", gw.account.testKey, body)).status).toBe(202);
  });

  it("derives the id from Idempotency-Key and body, and the type is part of it", async () => {
    const key = idempotencyKey();
    const first = await submit(gw.app, "accounts", gw.account.testKey, accountsBody(), key);
    const again = await submit(gw.app, "accounts", gw.account.testKey, accountsBody(), key);
    const other = await submit(gw.app, "accounts", gw.account.testKey, accountsBody({ credentials: { company_auth_code: "ZZ99ZZ" } }), key);
    expect(again.body.data.filing_id).toBe(first.body.data.filing_id);
    expect(other.status).toBe(202);
    expect(other.body.data.filing_id).not.toBe(first.body.data.filing_id);
  });

  it("announces the outcome of each company of the sandbox table", async () => {
    for (const [company, scenario] of Object.entries(SANDBOX_COMPANIES)) {
      const response = await submit(gw.app, "accounts", gw.account.testKey, accountsBody({ company_number: company }));
      expect(response.body.data).toMatchObject({ expected_outcome: scenario.outcome, sandbox: true });
    }
  });
});
