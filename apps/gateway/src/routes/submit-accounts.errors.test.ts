import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsBody, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

/** [what, body, the field paths the 400 must name] */
const INVALID: Array<[string, Record<string, unknown>, string[]]> = [
  ["company_number missing", accountsBody({ company_number: undefined }), ["company_number"]],
  ["company_number of 9 characters", accountsBody({ company_number: "000000001" }), ["company_number"]],
  ["period_end missing", accountsBody({ period_end: undefined }), ["period_end"]],
  ["period_end not a real day", accountsBody({ period_end: "2023-06-31" }), ["period_end"]],
  ["company.name too long", accountsBody({ company: { name: "n".repeat(161) } }), ["company.name"]],
  ["company.name blank", accountsBody({ company: { name: "   " } }), ["company.name"]],
  ["company.entity_type not a code", accountsBody({ company: { entity_type: "Private Limited Company" } }), ["company.entity_type"]],
  ["period.start not a date", accountsBody({ period: { start: "yesterday" } }), ["period.start"]],
  ["period.start not before period_end", accountsBody({ period: { start: "2024-03-31" } }), ["period.start"]],
  ["period.is_first_year not a boolean", accountsBody({ period: { is_first_year: "yes" } }), ["period.is_first_year"]],
  ["approval.date not a real day", accountsBody({ approval: { date: "2024-02-30" } }), ["approval.date"]],
  ["approval.date before period_end", accountsBody({ approval: { date: "2024-03-30" } }), ["approval.date"]],
  ["approval.director_name too long", accountsBody({ approval: { director_name: "d".repeat(161) } }), ["approval.director_name"]],
  [
    "approval.director_position too long",
    accountsBody({ approval: { director_position: "p".repeat(61) } }),
    ["approval.director_position"],
  ],
  ["balance_sheet.share_capital missing", accountsBody({ balance_sheet: { cash: 100 } }), ["balance_sheet.share_capital"]],
  ["balance_sheet.cash not a number", accountsBody({ balance_sheet: { share_capital: 100, cash: "100" } }), ["balance_sheet.cash"]],
  [
    "balance_sheet.cash negative",
    accountsBody({ balance_sheet: { share_capital: 100, cash: -1 } }),
    ["balance_sheet.cash", "balance_sheet"],
  ],
  [
    "balance_sheet.creditors in fractions of a penny",
    accountsBody({ balance_sheet: { share_capital: 100, cash: 100.005, creditors: 0.005 } }),
    ["balance_sheet.cash", "balance_sheet.creditors"],
  ],
  ["balance_sheet that does not balance", accountsBody({ balance_sheet: { share_capital: 100, cash: 50 } }), ["balance_sheet"]],
  [
    "balance_sheet with an unknown field",
    accountsBody({ balance_sheet: { share_capital: 1, cash: 1, debtors: 0 } }),
    ["balance_sheet.debtors"],
  ],
  ["credentials missing", accountsBody({ credentials: undefined }), ["credentials"]],
  ["credentials.company_auth_code missing", accountsBody({ credentials: {} }), ["credentials.company_auth_code"]],
  [
    "credentials.company_auth_code of 5 characters",
    accountsBody({ credentials: { company_auth_code: "AB12C" } }),
    ["credentials.company_auth_code"],
  ],
  [
    "credentials.company_auth_code in lower case",
    accountsBody({ credentials: { company_auth_code: "ab12cd" } }),
    ["credentials.company_auth_code"],
  ],
  ["a CT600 field", accountsBody({ utr: "1234567890" }), ["utr"]],
];

describe("POST /filings/accounts validation (live and sandbox alike)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "accounts_errors" });
  });
  afterAll(() => gw?.close());

  it.each(INVALID)("%s: 400 VALIDATION_ERROR naming the field, for both keys", async (_what, body, fields) => {
    for (const key of [gw.account.liveKey, gw.account.testKey]) {
      const response = await submit(gw.app, "accounts", key, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        success: false,
        error: { code: "VALIDATION_ERROR" },
        request_id: response.headers["x-request-id"],
      });
      expect(response.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
    }
  });

  it("answers a live submit 503 SERVICE_UNAVAILABLE with Retry-After while nothing serves filing.rpc", async () => {
    const response = await submit(gw.app, "accounts", gw.account.liveKey, accountsBody());
    expect(response.status).toBe(503);
    expect(response.headers["retry-after"]).toBe("30");
    expect(response.body.error.code).toBe("SERVICE_UNAVAILABLE");
  });
});
