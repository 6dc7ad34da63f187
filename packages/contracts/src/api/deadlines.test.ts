import { describe, expect, it } from "vitest";
import { CompanyDeadlines, CompanyPathParams, FILING_RPC_CATALOG } from "../index.ts";

const caller = { account_id: "acc_1", key_id: "key_1", mode: "live" as const, request_id: "3f0c1b7e-2f4d-4c59-9a4e-8d7a1c0b5e21" };

const example = {
  company_number: "00000001",
  company_name: "LOVELACE ENGINES LIMITED",
  today: "2025-06-01",
  accounts_periods: [
    {
      kind: "current",
      period: { start: "2024-04-01", end: "2025-03-31" },
      due_on: "2025-12-31",
      overdue: false,
      filings: [{ filing_id: "fil_abc", status: "accepted" }],
    },
  ],
  ct600_periods: [
    {
      period: { start: "2024-04-01", end: "2025-03-31" },
      accounts_period_end: "2025-03-31",
      filing_deadline: "2026-03-31",
      overdue: false,
      filings: [],
    },
  ],
};

describe("company deadlines", () => {
  it("takes a registry company number in the path", () => {
    expect(CompanyPathParams.safeParse({ company_number: "SC000001" }).success).toBe(true);
    expect(CompanyPathParams.safeParse({ company_number: "sc000001" }).success).toBe(false);
    expect(CompanyPathParams.safeParse({ company_number: "0000001" }).success).toBe(false);
  });

  it("answers periods with real dates and filings with known statuses", () => {
    expect(CompanyDeadlines.safeParse(example).success).toBe(true);
    expect(CompanyDeadlines.safeParse({ ...example, today: "2025-02-29" }).success).toBe(false);
    const badStatus = { ...example, ct600_periods: [{ ...example.ct600_periods[0], filings: [{ filing_id: "fil_x", status: "done" }] }] };
    expect(CompanyDeadlines.safeParse(badStatus).success).toBe(false);
  });

  it("is the filing.deadlines RPC's response, asked with the caller and the company number", () => {
    const rpc = FILING_RPC_CATALOG["filing.deadlines"];
    expect(rpc.request.safeParse({ caller, company_number: "00000001" }).success).toBe(true);
    expect(rpc.request.safeParse({ caller, company_number: "1" }).success).toBe(false);
    expect(rpc.response.safeParse(example).success).toBe(true);
  });
});
