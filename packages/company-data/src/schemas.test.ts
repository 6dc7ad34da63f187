import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { companyProfileSchema, filingHistorySchema, officerListSchema, type CompanyProfile } from "./schemas.ts";

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));

const minimalProfile = {
  company_name: "EXAMPLE LIMITED",
  company_number: "12345678",
  company_status: "active",
  type: "ltd",
  date_of_creation: "2023-05-02",
};

describe("companyProfileSchema", () => {
  it("parses a registry answer and strips the fields we do not use", () => {
    const profile = companyProfileSchema.parse(fixture("company-profile.json"));
    expect(profile).toEqual({
      company_name: "LOVELACE ENGINES LIMITED",
      company_number: "00000001",
      company_status: "active",
      type: "ltd",
      date_of_creation: "2022-04-14",
      jurisdiction: "england-wales",
      registered_office_address: {
        address_line_1: "12 Analytical Row",
        locality: "London",
        postal_code: "EC1A 1AA",
        country: "England",
      },
      accounts: {
        accounting_reference_date: { day: "31", month: "03" },
        last_accounts: {
          made_up_to: "2024-03-31",
          period_end_on: "2024-03-31",
          period_start_on: "2023-04-01",
          type: "dormant",
        },
        next_accounts: {
          due_on: "2025-12-31",
          overdue: false,
          period_end_on: "2025-03-31",
          period_start_on: "2024-04-01",
        },
      },
    } satisfies CompanyProfile);
  });

  it("accepts a newly incorporated company with no accounts block", () => {
    expect(companyProfileSchema.parse(minimalProfile)).toEqual(minimalProfile);
  });

  it('accepts last_accounts of type "null" with no dates', () => {
    const profile = companyProfileSchema.parse({
      ...minimalProfile,
      accounts: { last_accounts: { type: "null" } },
    });
    expect(profile.accounts?.last_accounts).toEqual({ type: "null" });
  });

  it.each([[{ day: 31, month: 12 }], [{ day: "31", month: "12" }], [{ day: "1", month: "3" }]])(
    "accepts the accounting reference date %j",
    (ard) => {
      const profile = companyProfileSchema.parse({
        ...minimalProfile,
        accounts: { accounting_reference_date: ard },
      });
      expect(profile.accounts?.accounting_reference_date).toEqual(ard);
    },
  );

  it.each([
    ["company_name missing", { company_name: undefined }, "company_name"],
    ["company_name empty", { company_name: "" }, "company_name"],
    ["company_number too short", { company_number: "1234567" }, "company_number"],
    ["company_number lower case", { company_number: "sc123456" }, "company_number"],
    ["date_of_creation not a date", { date_of_creation: "2023-02-30" }, "date_of_creation"],
    ["date_of_creation a timestamp", { date_of_creation: "2023-02-01T00:00:00Z" }, "date_of_creation"],
    ["type missing", { type: undefined }, "type"],
    ["company_status a number", { company_status: 1 }, "company_status"],
    ["last made-up date not a date", { accounts: { last_accounts: { made_up_to: "31/03/2024" } } }, "accounts.last_accounts.made_up_to"],
    [
      "next period start not a date",
      { accounts: { next_accounts: { period_start_on: "2024-13-01" } } },
      "accounts.next_accounts.period_start_on",
    ],
    [
      "accounting reference day 32",
      { accounts: { accounting_reference_date: { day: "32", month: "12" } } },
      "accounts.accounting_reference_date.day",
    ],
  ])("rejects %s", (_, change, path) => {
    const result = companyProfileSchema.safeParse({ ...minimalProfile, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });
});

describe("officerListSchema", () => {
  it("parses a registry answer keeping what the rules need", () => {
    const list = officerListSchema.parse(fixture("officers.json"));
    expect(list.total_results).toBe(4);
    expect(list.items).toHaveLength(4);
    expect(list.items[0]).toEqual({
      name: "BABBAGE, Charles",
      officer_role: "director",
      appointed_on: "2023-01-09",
    });
    expect(list.items[1]).toEqual({
      name: "SOMERVILLE, Mary",
      officer_role: "director",
      appointed_on: "2022-04-14",
      resigned_on: "2022-12-31",
    });
  });

  it("accepts a pre-1992 appointment with appointed_before only", () => {
    const list = officerListSchema.parse({
      items: [{ name: "OLD, Timer", officer_role: "director", appointed_before: "1991-10-01" }],
    });
    expect(list.items[0]?.appointed_before).toBe("1991-10-01");
  });

  it.each([
    [{ items: [{ officer_role: "director" }] }, "items.0.name"],
    [{ items: [{ name: "X, Y" }] }, "items.0.officer_role"],
    [{ items: [{ name: "X, Y", officer_role: "director", resigned_on: "yesterday" }] }, "items.0.resigned_on"],
    [{ items: [{ name: "X, Y", officer_role: "director", appointed_on: "2023-02-29" }] }, "items.0.appointed_on"],
    [{}, "items"],
  ])("rejects %j", (body, path) => {
    const result = officerListSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });
});

describe("filingHistorySchema", () => {
  it("parses accounts filings, keeping made-up dates and the simulator's figures", () => {
    const history = filingHistorySchema.parse(fixture("filing-history.json"));
    expect(history.total_count).toBe(3);
    expect(history.items.map((i) => [i.type, i.date, i.description_values?.made_up_date])).toEqual([
      ["AA", "2024-06-02", "2024-03-31"],
      ["AA", "2023-05-11", "2023-03-31"],
      ["AA01", "2023-02-20", "2023-04-30"],
    ]);
    expect(history.items[0]?.accounts_figures).toEqual({
      share_capital: 100,
      cash: 100,
      creditors: 0,
      profit_loss_account: 0,
    });
    expect(history.items[1]?.accounts_figures).toBeUndefined();
    expect(history.items[2]?.description_values).toEqual({ made_up_date: "2023-04-30" });
  });

  it("accepts an empty history", () => {
    expect(filingHistorySchema.parse({ items: [] })).toEqual({ items: [] });
  });

  const item = {
    category: "accounts",
    type: "AA",
    date: "2024-06-02",
    description: "accounts-with-accounts-type-dormant",
  };

  it.each([
    [{ ...item, date: "2024-06-31" }, "items.0.date"],
    [{ ...item, type: "" }, "items.0.type"],
    [{ ...item, description_values: { made_up_date: "2024" } }, "items.0.description_values.made_up_date"],
    [
      { ...item, accounts_figures: { share_capital: 100.001, cash: 100, creditors: 0, profit_loss_account: 0 } },
      "items.0.accounts_figures.share_capital",
    ],
    [{ ...item, accounts_figures: { share_capital: 100, cash: 100, creditors: 0 } }, "items.0.accounts_figures.profit_loss_account"],
    [
      { ...item, accounts_figures: { share_capital: "100", cash: 100, creditors: 0, profit_loss_account: 0 } },
      "items.0.accounts_figures.share_capital",
    ],
  ])("rejects an item %j", (bad, path) => {
    const result = filingHistorySchema.safeParse({ items: [bad] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(path);
  });
});
