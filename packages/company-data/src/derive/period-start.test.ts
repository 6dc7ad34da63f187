import { describe, expect, it } from "vitest";
import type { CompanyAccounts, CompanyProfile } from "../schemas.ts";
import { annualAccounts, companyProfile, filingHistory } from "../test-support/registry-builders.ts";
import { derivePeriodStart } from "./period-start.ts";

const withAccounts = (accounts: CompanyAccounts, change: Partial<CompanyProfile> = {}) =>
  companyProfile({ date_of_creation: "2022-04-14", accounts, ...change });

describe("derivePeriodStart (the rule without a period end)", () => {
  it.each([
    ["the incorporation date when nothing is filed or scheduled", companyProfile(), "2022-04-14"],
    [
      "next_accounts.period_start_on when nothing is filed yet",
      withAccounts({ next_accounts: { period_start_on: "2022-04-14", period_end_on: "2023-04-30" } }),
      "2022-04-14",
    ],
    [
      "the day after last_accounts.made_up_to",
      withAccounts({
        last_accounts: { made_up_to: "2024-03-31" },
        next_accounts: { period_start_on: "2024-04-01" },
      }),
      "2024-04-01",
    ],
    [
      "the day after period_end_on, the non-deprecated spelling",
      withAccounts({ last_accounts: { period_end_on: "2023-12-31" } }),
      "2024-01-01",
    ],
    ["the day after a leap day", withAccounts({ last_accounts: { made_up_to: "2024-02-29" } }), "2024-03-01"],
    ["the day after a year end, into the next year", withAccounts({ last_accounts: { made_up_to: "2024-12-31" } }), "2025-01-01"],
    [
      "made-up date over a next_accounts that disagrees",
      withAccounts({
        last_accounts: { made_up_to: "2024-03-31" },
        next_accounts: { period_start_on: "2024-05-01" },
      }),
      "2024-04-01",
    ],
    ['the incorporation date when last_accounts is { type: "null" }', withAccounts({ last_accounts: { type: "null" } }), "2022-04-14"],
  ])("gives %s", (_, profile, expected) => {
    expect(derivePeriodStart(profile)).toBe(expected);
  });

  it("uses the latest made-up date of the profile and the AA filings", () => {
    const profile = withAccounts({ last_accounts: { made_up_to: "2023-03-31" } });
    const history = filingHistory(annualAccounts("2024-03-31"), annualAccounts("2023-03-31"));
    expect(derivePeriodStart(profile, { filingHistory: history })).toBe("2024-04-01");
  });

  it("ignores accounts-category items that are not annual accounts", () => {
    const history = filingHistory({
      category: "accounts",
      type: "AA01",
      date: "2023-02-20",
      description: "change-account-reference-date-company-current-shortened",
      description_values: { made_up_date: "2023-04-30" },
    });
    expect(derivePeriodStart(companyProfile(), { filingHistory: history })).toBe("2022-04-14");
  });
});

describe("derivePeriodStart for a given period end", () => {
  const profile = withAccounts({
    last_accounts: { made_up_to: "2024-03-31", period_end_on: "2024-03-31", period_start_on: "2023-04-01" },
    next_accounts: { period_start_on: "2024-04-01", period_end_on: "2025-03-31" },
  });
  const history = filingHistory(annualAccounts("2024-03-31"), annualAccounts("2023-03-31"));

  it.each([
    ["the next period after the last accounts", "2025-03-31", "2024-04-01"],
    // the accounts for this period are already at the registry (CT600 filed afterwards)
    ["this period, already filed at the registry: its registered start", "2024-03-31", "2023-04-01"],
    // an earlier period, known only from the filing history
    ["an earlier period: the day after the accounts before it", "2023-03-31", "2022-04-14"],
  ])("gives %s", (_, periodEnd, expected) => {
    expect(derivePeriodStart(profile, { periodEnd, filingHistory: history })).toBe(expected);
  });

  it("uses the filing history when the profile's last accounts have no start date", () => {
    const bare = withAccounts({ last_accounts: { made_up_to: "2024-03-31" } });
    expect(derivePeriodStart(bare, { periodEnd: "2024-03-31", filingHistory: history })).toBe("2023-04-01");
  });

  it("gives the incorporation date for the first period even after its accounts were filed", () => {
    const first = withAccounts({
      last_accounts: { made_up_to: "2023-04-30" },
      next_accounts: { period_start_on: "2023-05-01" },
    });
    expect(derivePeriodStart(first, { periodEnd: "2023-04-30" })).toBe("2022-04-14");
  });

  it("skips a next_accounts start that is after the period end", () => {
    const fresh = withAccounts({ next_accounts: { period_start_on: "2023-05-01" } });
    expect(derivePeriodStart(fresh, { periodEnd: "2023-04-30" })).toBe("2022-04-14");
  });

  it("uses next_accounts when the period end is on or after it", () => {
    const fresh = withAccounts({ next_accounts: { period_start_on: "2023-05-01" } }, { date_of_creation: "2020-01-01" });
    expect(derivePeriodStart(fresh, { periodEnd: "2023-05-01" })).toBe("2023-05-01");
  });
});
