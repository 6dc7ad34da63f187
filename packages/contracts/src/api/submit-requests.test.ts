import { describe, expect, it } from "vitest";
import { AccountsFilingInput, AccountsSubmitRequest, Ct600FilingInput, Ct600SubmitRequest, validationDetails } from "../index.ts";

const ct600 = {
  company_number: "00000001",
  utr: "1234567890",
  period_end: "2024-03-31",
  credentials: { government_gateway_id: "gw-user", government_gateway_password: "s3cret-pass" },
};
const accounts = { company_number: "SC000001", period_end: "2024-03-31", credentials: { company_auth_code: "AB12CD" } };

function problems(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return validationDetails(result.error as never);
}

describe("CT600 submit request", () => {
  it("accepts the minimal body and every override", () => {
    expect(problems(Ct600SubmitRequest, ct600)).toEqual([]);
    const full = {
      ...ct600,
      company: { name: "Acme Ltd" },
      period: { start: "2023-04-01" },
      declarant: { name: "Ada Lovelace", status: "Company Secretary" },
    };
    expect(problems(Ct600SubmitRequest, full)).toEqual([]);
  });

  it("lists every violated field by path in one answer, cross-field rules included", () => {
    const fields = problems(Ct600SubmitRequest, {
      company_number: "1234567",
      utr: "12345",
      period_end: "2024-03-31",
      period: { start: "2024-04-01" },
      credentials: { government_gateway_id: "u" },
    }).map((d) => d.field);
    expect(fields).toEqual(["company_number", "utr", "credentials.government_gateway_password", "period.start"]);
  });

  it("refuses dates that are not real calendar days, in every date field", () => {
    expect(problems(Ct600SubmitRequest, { ...ct600, period_end: "2023-02-29" })[0]?.field).toBe("period_end");
    expect(problems(Ct600SubmitRequest, { ...ct600, period: { start: "2023-04-31" } })[0]?.field).toBe("period.start");
    expect(problems(Ct600SubmitRequest, { ...ct600, period_end: "2024-02-29" })).toEqual([]);
  });

  it("holds CT600 names to the tax authority's 2..56 characters without £ $ # ~ €", () => {
    expect(problems(Ct600SubmitRequest, { ...ct600, company: { name: "x".repeat(56) } })).toEqual([]);
    expect(problems(Ct600SubmitRequest, { ...ct600, company: { name: "x".repeat(57) } })[0]?.field).toBe("company.name");
    expect(problems(Ct600SubmitRequest, { ...ct600, declarant: { name: "A" } })[0]?.field).toBe("declarant.name");
    expect(problems(Ct600SubmitRequest, { ...ct600, declarant: { name: "Ada #1" } })[0]?.field).toBe("declarant.name");
  });

  it("refuses unknown fields by name, at any depth", () => {
    expect(problems(Ct600SubmitRequest, { ...ct600, declarent: {}, company: { nmae: "x" } }).map((d) => d.field)).toEqual([
      "company.nmae",
      "declarent",
    ]);
  });

  it("says 'is required' for missing fields and never echoes the value", () => {
    const details = problems(Ct600SubmitRequest, {
      ...ct600,
      credentials: { government_gateway_id: "u", government_gateway_password: 12345678 },
    });
    expect(details).toEqual([{ field: "credentials.government_gateway_password", message: "must be a string" }]);
    expect(problems(Ct600SubmitRequest, {})).toContainEqual({ field: "credentials", message: "is required" });
    expect(problems(Ct600SubmitRequest, undefined)).toEqual([{ field: "body", message: "is required" }]);
  });

  it("without credentials, for the bus, applies the same rules and refuses credentials", () => {
    const { credentials: _omitted, ...filing } = ct600;
    expect(problems(Ct600FilingInput, filing)).toEqual([]);
    expect(problems(Ct600FilingInput, { ...filing, period: { start: "2025-01-01" } })[0]?.field).toBe("period.start");
    expect(problems(Ct600FilingInput, ct600)[0]?.field).toBe("credentials");
  });
});

describe("accounts submit request", () => {
  it("accepts a balanced sheet and every override", () => {
    const full = {
      ...accounts,
      company: { name: "Acme Holdings Limited", entity_type: "ltd" },
      period: { start: "2023-04-01", is_first_year: false },
      approval: { date: "2024-05-01", director_name: "Ada Lovelace", director_position: "Director" },
      balance_sheet: { share_capital: 100, cash: 150.5, creditors: 50.5, profit_loss_account: 0 },
    };
    expect(problems(AccountsSubmitRequest, full)).toEqual([]);
  });

  it("refuses a sheet that does not balance, to the penny", () => {
    const details = problems(AccountsSubmitRequest, { ...accounts, balance_sheet: { share_capital: 100, cash: 99.99 } });
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ field: "balance_sheet" });
    expect(details[0]?.message).toContain("does not balance");
    expect(
      problems(AccountsSubmitRequest, {
        ...accounts,
        balance_sheet: { share_capital: 100, cash: 0, creditors: 0, profit_loss_account: -100 },
      }),
    ).toEqual([]);
  });

  it("limits amounts to whole pence and non-negative where it matters", () => {
    const fields = problems(AccountsSubmitRequest, { ...accounts, balance_sheet: { share_capital: -1, cash: 0.001, creditors: "5" } }).map(
      (d) => d.field,
    );
    expect(fields).toEqual(["balance_sheet.share_capital", "balance_sheet.cash", "balance_sheet.creditors"]);
  });

  it("checks the auth code, dates and their order", () => {
    const fields = problems(AccountsSubmitRequest, {
      ...accounts,
      period: { start: "2024-03-31" },
      approval: { date: "2024-03-30" },
      credentials: { company_auth_code: "ab12cd" },
    }).map((d) => d.field);
    expect(fields).toEqual(["credentials.company_auth_code", "period.start", "approval.date"]);
  });

  it("limits names and the entity type code", () => {
    const fields = problems(AccountsSubmitRequest, {
      ...accounts,
      company: { name: "x".repeat(161), entity_type: "Private Limited" },
      approval: { director_name: "  ", director_position: "p".repeat(61) },
    }).map((d) => d.field);
    expect(fields).toEqual(["company.name", "company.entity_type", "approval.director_name", "approval.director_position"]);
  });

  it("without credentials, for the bus, keeps the rules", () => {
    expect(problems(AccountsFilingInput, { company_number: "SC000001", period_end: "2024-03-31" })).toEqual([]);
  });
});
