import { describe, expect, it } from "vitest";
import type { FilingHistory } from "../schemas.ts";
import { annualAccounts, companyProfile, filingHistory } from "../test-support/registry-builders.ts";
import { deriveIsFirstYear } from "./is-first-year.ts";

const filedProfile = companyProfile({ accounts: { last_accounts: { made_up_to: "2023-04-30" } } });
const noAccounts = filingHistory();
const aa01Only: FilingHistory = filingHistory({
  category: "accounts",
  type: "AA01",
  date: "2022-10-01",
  description: "change-account-reference-date-company-current-extended",
  description_values: { made_up_date: "2023-04-30" },
});

describe("deriveIsFirstYear", () => {
  it.each([
    ["a new company with nothing filed", companyProfile(), undefined, undefined, true],
    ["a new company with an empty history", companyProfile(), noAccounts, undefined, true],
    ["a company with only an accounting reference date change", companyProfile(), aa01Only, undefined, true],
    ["a company whose profile shows filed accounts", filedProfile, undefined, undefined, false],
    ["a company whose history shows filed accounts", companyProfile(), filingHistory(annualAccounts("2023-04-30")), undefined, false],
    [
      'a profile with last_accounts { type: "null" }',
      companyProfile({ accounts: { last_accounts: { type: "null" } } }),
      undefined,
      undefined,
      true,
    ],
    // with the period start
    ["the first period, whose own accounts are already filed", filedProfile, undefined, "2022-04-14", true],
    ["the period after filed accounts", filedProfile, undefined, "2023-05-01", false],
    [
      "the first period, history holding only its own accounts",
      companyProfile(),
      filingHistory(annualAccounts("2023-04-30")),
      "2022-04-14",
      true,
    ],
    [
      "a later period known from the history",
      companyProfile(),
      filingHistory(annualAccounts("2024-04-30"), annualAccounts("2023-04-30")),
      "2024-05-01",
      false,
    ],
    ["accounts made up to the day before the period", companyProfile(), filingHistory(annualAccounts("2023-04-30")), "2023-05-01", false],
    ["accounts made up to the period's first day do not make it a later year", filedProfile, undefined, "2023-04-30", true],
  ])("%s: %s", (_, profile, history, periodStart, expected) => {
    const options = {
      ...(history === undefined ? {} : { filingHistory: history }),
      ...(periodStart === undefined ? {} : { periodStart }),
    };
    expect(deriveIsFirstYear(profile, options)).toBe(expected);
  });
});
