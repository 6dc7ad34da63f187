import type { DormantAccountsInput } from "../ixbrl/dormant-accounts-input.ts";

/** A first-year dormant company holding its 100 pounds of share capital as cash. */
export function firstYearInput(overrides: Partial<DormantAccountsInput> = {}): DormantAccountsInput {
  return {
    companyName: "Dormant Example Limited",
    companyNumber: "00000001",
    registryCompanyType: "ltd",
    jurisdiction: "england-wales",
    periodStart: "2025-04-01",
    periodEnd: "2026-03-31",
    approvalDate: "2026-05-01",
    directorName: "Ada Lovelace",
    current: { cash: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 0 },
    ...overrides,
  };
}

/** A second-year company whose prior balance sheet showed the share capital as not yet paid. */
export function withPriorYearInput(overrides: Partial<DormantAccountsInput> = {}): DormantAccountsInput {
  return firstYearInput({
    priorYear: {
      periodStart: "2024-04-01",
      periodEnd: "2025-03-31",
      cash: 0,
      sharesNotPaid: 10_000,
      creditors: 0,
      shareCapital: 10_000,
      profitLossAccount: 0,
    },
    ...overrides,
  });
}
