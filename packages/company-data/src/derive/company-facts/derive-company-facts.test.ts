import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { periodEndAfterMonths } from "../../accounting-period.ts";
import { addDays, daysBetween, fromDayNumber, toDayNumber } from "../../calendar-date.ts";
import {
  companyProfileSchema,
  filingHistorySchema,
  officerListSchema,
  type CompanyProfile,
  type FilingHistory,
  type OfficerList,
} from "../../schemas.ts";
import { annualAccounts, companyProfile, filingHistory, officer, officerList } from "../../test-support/registry-builders.ts";
import type { AccountsFacts, Ct600Facts } from "./company-facts.ts";
import { deriveCompanyFacts } from "./derive-company-facts.ts";
import type { AccountsFactsInput, Ct600FactsInput } from "./facts-input.ts";

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), "utf8"));

// LOVELACE ENGINES LIMITED: incorporated 2022-04-14, accounts filed to 2023-03-31 and
// 2024-03-31 (the latter with figures 100/100/0/0), directors Lovelace (2022) and Babbage (2023).
const registry = {
  profile: companyProfileSchema.parse(fixture("company-profile.json")),
  officers: officerListSchema.parse(fixture("officers.json")),
  filingHistory: filingHistorySchema.parse(fixture("filing-history.json")),
};

const today = "2025-06-15";

const ct600 = (change: Partial<Ct600FactsInput> = {}): Ct600FactsInput => ({
  filingType: "ct600",
  ...registry,
  periodEnd: "2025-03-31",
  today,
  ...change,
});

const accounts = (change: Partial<AccountsFactsInput> = {}): AccountsFactsInput => ({
  filingType: "accounts",
  ...registry,
  periodEnd: "2025-03-31",
  today,
  ...change,
});

/** A company incorporated 2024-01-15 with one director, nothing filed yet. */
const newCompany: { profile: CompanyProfile; officers: OfficerList; filingHistory: FilingHistory } = {
  profile: companyProfile({
    company_number: "15432109",
    date_of_creation: "2024-01-15",
    accounts: {
      accounting_reference_date: { day: "31", month: "01" },
      next_accounts: { period_start_on: "2024-01-15", period_end_on: "2025-01-31", due_on: "2025-10-15" },
    },
  }),
  officers: officerList(officer("HOPPER, Grace Brewster", { appointed_on: "2024-01-15" })),
  filingHistory: filingHistory(),
};

function ok<F>(result: { ok: true; facts: F } | { ok: false; problems: unknown }): F {
  if (!result.ok) throw new Error(`expected facts, got problems ${JSON.stringify(result.problems)}`);
  return result.facts;
}

function problemsOf(result: { ok: boolean; problems?: unknown }) {
  expect(result.ok).toBe(false);
  return result.problems;
}

describe("deriveCompanyFacts: CT600", () => {
  it("derives everything from the registry for the next period", () => {
    expect(ok(deriveCompanyFacts(ct600()))).toEqual({
      filingType: "ct600",
      companyNumber: "00000001",
      companyName: "LOVELACE ENGINES LIMITED",
      companyStatus: "active",
      entityType: "ltd",
      period: { start: "2024-04-01", end: "2025-03-31" },
      isFirstYear: false,
      declarant: { name: "Augusta Ada Lovelace", status: "Director" },
      ct600Periods: [{ start: "2024-04-01", end: "2025-03-31" }],
      periodSplit: false,
      derivedValues: {
        company_name: "LOVELACE ENGINES LIMITED",
        period_start: "2024-04-01",
        is_first_year: false,
        declarant_name: "Augusta Ada Lovelace",
        declarant_status: "Director",
      },
    } satisfies Ct600Facts);
  });

  it("splits a first period longer than 12 months", () => {
    const facts = ok(deriveCompanyFacts(ct600({ ...newCompany, periodEnd: "2025-01-31" })));
    expect(facts.period).toEqual({ start: "2024-01-15", end: "2025-01-31" });
    expect(facts.isFirstYear).toBe(true);
    expect(facts.periodSplit).toBe(true);
    expect(facts.ct600Periods).toEqual([
      { start: "2024-01-15", end: "2025-01-14" },
      { start: "2025-01-15", end: "2025-01-31" },
    ]);
    expect(facts.declarant).toEqual({ name: "Grace Brewster Hopper", status: "Director" });
  });

  it("finds the period of accounts already filed at the registry (CT600 sent afterwards)", () => {
    const facts = ok(deriveCompanyFacts(ct600({ periodEnd: "2024-03-31" })));
    expect(facts.period).toEqual({ start: "2023-04-01", end: "2024-03-31" });
    expect(facts.isFirstYear).toBe(false);
  });

  it("knows the first period is the first year even after its accounts were filed", () => {
    const facts = ok(deriveCompanyFacts(ct600({ periodEnd: "2023-03-31" })));
    expect(facts.period).toEqual({ start: "2022-04-14", end: "2023-03-31" });
    expect(facts.isFirstYear).toBe(true);
  });

  it("applies the request's overrides", () => {
    const facts = ok(
      deriveCompanyFacts(
        ct600({
          overrides: {
            company: { name: "  Lovelace Engines Ltd " },
            period: { start: "2024-03-01" },
            declarant: { name: " Charles Babbage ", status: "Agent" },
          },
        }),
      ),
    );
    expect(facts.derivedValues).toEqual({
      company_name: "Lovelace Engines Ltd",
      period_start: "2024-03-01",
      is_first_year: false,
      declarant_name: "Charles Babbage",
      declarant_status: "Agent",
    });
    expect(facts.ct600Periods).toEqual([
      { start: "2024-03-01", end: "2025-02-28" },
      { start: "2025-03-01", end: "2025-03-31" },
    ]);
  });

  it("uses the first director for a declarant given only a Director status", () => {
    const facts = ok(deriveCompanyFacts(ct600({ overrides: { declarant: { status: "Director" } } })));
    expect(facts.declarant).toEqual({ name: "Augusta Ada Lovelace", status: "Director" });
  });

  it.each([
    [
      "a non-director declarant without a name",
      { overrides: { declarant: { status: "Company Secretary" } } },
      [
        {
          path: "declarant.name",
          message: 'is required when declarant.status is "Company Secretary": only a Director defaults to the registry\'s first director',
        },
      ],
    ],
    [
      "no active director and no declarant name",
      { officers: officerList(officer("GONE, Gail", { resigned_on: "2024-01-01" })) },
      [{ path: "declarant.name", message: "the registry lists no active director for company 00000001; give declarant.name" }],
    ],
    ["a blank declarant name", { overrides: { declarant: { name: "   " } } }, [{ path: "declarant.name", message: "must not be blank" }]],
    [
      "an unknown declarant status",
      { overrides: { declarant: { name: "Ada Lovelace", status: "Boss" } } },
      [{ path: "declarant.status", message: "must be one of Director, Company Secretary, Agent" }],
    ],
    ["a blank company name", { overrides: { company: { name: "" } } }, [{ path: "company.name", message: "must not be blank" }]],
    [
      "a period end in the future",
      { periodEnd: "2026-03-31" },
      [
        { path: "period_end", message: "period end 2026-03-31 is in the future (today is 2025-06-15)" },
        {
          path: "period.start",
          message: "the period 2024-04-01 to 2026-03-31 is longer than 18 months, the longest accounting period allowed",
        },
      ],
    ],
    [
      "a period start after the end",
      { overrides: { period: { start: "2025-04-01" } } },
      [{ path: "period.start", message: "period start 2025-04-01 is after period end 2025-03-31" }],
    ],
    [
      "a period end that is not a date",
      { periodEnd: "2025-02-29" },
      [{ path: "period_end", message: "must be a real date written YYYY-MM-DD" }],
    ],
    [
      "a period start that is not a date",
      { overrides: { period: { start: "2024-04-31" } } },
      [{ path: "period.start", message: "must be a real date written YYYY-MM-DD" }],
    ],
    [
      "an LLP",
      { profile: companyProfile({ type: "llp", company_number: "OC123456" }) },
      [
        {
          path: "company_number",
          message: 'the registry lists company OC123456 as "llp", a type this service does not file for',
        },
      ],
    ],
  ] as const)("reports %s", (_, change, problems) => {
    expect(problemsOf(deriveCompanyFacts(ct600(change as Partial<Ct600FactsInput>)))).toEqual(problems);
  });

  it("reports every problem at once", () => {
    const result = deriveCompanyFacts(
      ct600({
        officers: officerList(),
        periodEnd: "2026-01-31",
        overrides: { company: { name: " " }, period: { start: "2025-01-01" } },
      }),
    );
    expect((problemsOf(result) as { path: string }[]).map((p) => p.path)).toEqual(["company.name", "period_end", "declarant.name"]);
  });

  it("throws on an invalid today, a caller bug", () => {
    expect(() => deriveCompanyFacts(ct600({ today: "15/06/2025" }))).toThrow(RangeError);
  });

  it("covers the whole period with its CT600 parts, for any period up to 18 months", () => {
    const start = fc.integer({ min: toDayNumber("2000-01-01"), max: toDayNumber("2030-01-01") }).map(fromDayNumber);
    fc.assert(
      fc.property(start, fc.integer({ min: 0, max: 600 }), (periodStart, length) => {
        const periodEnd = addDays(periodStart, Math.min(length, daysBetween(periodStart, periodEndAfterMonths(periodStart, 18))));
        const facts = ok(deriveCompanyFacts(ct600({ periodEnd, today: "2032-01-01", overrides: { period: { start: periodStart } } })));
        const parts = facts.ct600Periods;
        return parts[0]?.start === periodStart && parts[parts.length - 1]?.end === periodEnd && facts.periodSplit === (parts.length === 2);
      }),
    );
  });
});

describe("deriveCompanyFacts: accounts", () => {
  it("derives everything from the registry, with last year's figures as comparatives", () => {
    expect(ok(deriveCompanyFacts(accounts()))).toEqual({
      filingType: "accounts",
      companyNumber: "00000001",
      companyName: "LOVELACE ENGINES LIMITED",
      companyStatus: "active",
      entityType: "ltd",
      period: { start: "2024-04-01", end: "2025-03-31" },
      isFirstYear: false,
      registryCompanyType: "EW",
      approval: { date: "2025-06-15", directorName: "Augusta Ada Lovelace", directorPosition: "Director" },
      balanceSheet: { shareCapital: 10_000, cash: 10_000, creditors: 0, profitLossAccount: 0 },
      priorYear: { madeUpTo: "2024-03-31", shareCapital: 10_000, cash: 10_000, creditors: 0, profitLossAccount: 0 },
      derivedValues: {
        company_name: "LOVELACE ENGINES LIMITED",
        entity_type: "ltd",
        period_start: "2024-04-01",
        is_first_year: false,
        director_name: "Augusta Ada Lovelace",
        approval_date: "2025-06-15",
        share_capital: 100,
        cash: 100,
      },
    } satisfies AccountsFacts);
  });

  it("uses the defaults in a first year: share capital 100, cash 100, no comparatives", () => {
    const facts = ok(deriveCompanyFacts(accounts({ ...newCompany, periodEnd: "2025-01-31" })));
    expect(facts.isFirstYear).toBe(true);
    expect(facts.priorYear).toBeNull();
    expect(facts.balanceSheet).toEqual({ shareCapital: 10_000, cash: 10_000, creditors: 0, profitLossAccount: 0 });
    expect(facts.derivedValues).toMatchObject({ share_capital: 100, cash: 100, director_name: "Grace Brewster Hopper" });
  });

  it("carries forward a prior year with creditors and a loss", () => {
    const history = filingHistory(
      annualAccounts("2024-03-31", { share_capital: 1, cash: 50.5, creditors: 60, profit_loss_account: -10.5 }),
    );
    const facts = ok(deriveCompanyFacts(accounts({ filingHistory: history })));
    expect(facts.balanceSheet).toEqual({ shareCapital: 100, cash: 5_050, creditors: 6_000, profitLossAccount: -1_050 });
    expect(facts.derivedValues).toMatchObject({ share_capital: 1, cash: 50.5 });
  });

  it("gives a company limited by guarantee no share capital", () => {
    const profile = companyProfile({ type: "private-limited-guarant-nsc", date_of_creation: "2024-04-01" });
    const facts = ok(deriveCompanyFacts(accounts({ profile, filingHistory: filingHistory() })));
    expect(facts.balanceSheet).toEqual({ shareCapital: 0, cash: 0, creditors: 0, profitLossAccount: 0 });
  });

  it.each([
    ["scotland", "SC000001", "SC"],
    ["northern-ireland", "NI000001", "NI"],
    ["wales", "00000001", "EW"],
  ] as const)("sends a %s company (%s) as CompanyType %s", (jurisdiction, company_number, type) => {
    const profile = { ...registry.profile, jurisdiction, company_number };
    expect(ok(deriveCompanyFacts(accounts({ profile }))).registryCompanyType).toBe(type);
  });

  it("applies the request's overrides", () => {
    const facts = ok(
      deriveCompanyFacts(
        accounts({
          overrides: {
            company: { name: "Lovelace Engines Ltd", entity_type: "plc" },
            period: { start: "2024-04-01", is_first_year: true },
            approval: { date: "2025-04-02", director_name: "Charles Babbage", director_position: "Managing Director" },
            balance_sheet: { share_capital: 1, cash: 1, creditors: 0, profit_loss_account: 0 },
          },
        }),
      ),
    );
    expect(facts.priorYear).toBeNull();
    expect(facts.approval).toEqual({ date: "2025-04-02", directorName: "Charles Babbage", directorPosition: "Managing Director" });
    expect(facts.derivedValues).toEqual({
      company_name: "Lovelace Engines Ltd",
      entity_type: "plc",
      period_start: "2024-04-01",
      is_first_year: true,
      director_name: "Charles Babbage",
      approval_date: "2025-04-02",
      share_capital: 1,
      cash: 1,
    });
  });

  it("rebalances cash around an overridden share capital", () => {
    const facts = ok(deriveCompanyFacts(accounts({ overrides: { balance_sheet: { share_capital: 2.5 } } })));
    expect(facts.balanceSheet).toEqual({ shareCapital: 250, cash: 250, creditors: 0, profitLossAccount: 0 });
    expect(facts.derivedValues).toMatchObject({ share_capital: 2.5, cash: 2.5 });
  });

  it("accepts the approval on the period end day", () => {
    const facts = ok(deriveCompanyFacts(accounts({ overrides: { approval: { date: "2025-03-31" } } })));
    expect(facts.approval.date).toBe("2025-03-31");
  });

  it.each([
    [
      "a balance sheet that does not balance",
      { overrides: { balance_sheet: { share_capital: 100, cash: 50, creditors: 0, profit_loss_account: 0 } } },
      [
        {
          path: "balance_sheet",
          message:
            "the balance sheet does not balance: net assets (cash - creditors) are 50.00 but capital and reserves (share_capital + profit_loss_account) are 100.00",
        },
      ],
    ],
    [
      "an amount with three decimals, and nothing about the balance",
      { overrides: { balance_sheet: { cash: 100.001 } } },
      [{ path: "balance_sheet.cash", message: "must be a finite amount with at most two decimal places" }],
    ],
    [
      "a negative cash",
      { overrides: { balance_sheet: { share_capital: 100, cash: -100, creditors: 0, profit_loss_account: -200 } } },
      [{ path: "balance_sheet.cash", message: "must not be negative" }],
    ],
    [
      "an approval before the period end",
      { overrides: { approval: { date: "2025-03-30" } } },
      [{ path: "approval.date", message: "accounts cannot be approved (2025-03-30) before the end of their period (2025-03-31)" }],
    ],
    [
      "an approval in the future",
      { overrides: { approval: { date: "2025-06-16" } } },
      [{ path: "approval.date", message: "approval date 2025-06-16 is in the future (today is 2025-06-15)" }],
    ],
    [
      "an approval date that is not a date",
      { overrides: { approval: { date: "2025-06-31" } } },
      [{ path: "approval.date", message: "must be a real date written YYYY-MM-DD" }],
    ],
    [
      "no active director and no director name",
      { officers: officerList() },
      [
        {
          path: "approval.director_name",
          message: "the registry lists no active director for company 00000001; give approval.director_name",
        },
      ],
    ],
    [
      "a blank director position",
      { overrides: { approval: { director_position: " " } } },
      [{ path: "approval.director_position", message: "must not be blank" }],
    ],
    [
      "an entity type this service does not file",
      { overrides: { company: { entity_type: "llp" } } },
      [
        {
          path: "company.entity_type",
          message:
            '"llp" is not an entity type this service files for (one of: ltd, plc, private-unlimited, private-unlimited-nsc, private-limited-guarant-nsc, private-limited-guarant-nsc-limited-exemption, private-limited-shares-section-30-exemption)',
        },
      ],
    ],
    [
      "a company whose register cannot be told",
      { profile: { ...registry.profile, jurisdiction: undefined, company_number: "R0000123" } },
      [
        {
          path: "company_number",
          message: "cannot tell which register (England and Wales, Scotland, Northern Ireland) company R0000123 is on",
        },
      ],
    ],
    [
      "a period end in the future, without blaming the default approval date",
      { periodEnd: "2025-06-30" },
      [{ path: "period_end", message: "period end 2025-06-30 is in the future (today is 2025-06-15)" }],
    ],
  ] as const)("reports %s", (_, change, problems) => {
    expect(problemsOf(deriveCompanyFacts(accounts(change as Partial<AccountsFactsInput>)))).toEqual(problems);
  });
});
