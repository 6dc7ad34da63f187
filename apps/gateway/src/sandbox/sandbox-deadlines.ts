import { deriveCompanyDeadlines, SANDBOX_COMPANY_NAME, sandboxProfile } from "@dormant/company-data";
import type { CompanyDeadlines } from "@dormant/contracts";

/** A test key's deadlines: the live rule applied to the sandbox profile, with no filings (the sandbox stores none). */
export function sandboxDeadlines(companyNumber: string, today: string): CompanyDeadlines {
  const { accountsPeriods, ct600Periods } = deriveCompanyDeadlines(sandboxProfile(companyNumber, today), today);
  return {
    company_number: companyNumber,
    company_name: SANDBOX_COMPANY_NAME,
    today,
    accounts_periods: accountsPeriods.map((p) => ({ kind: p.kind, period: p.period, due_on: p.dueOn, overdue: p.overdue, filings: [] })),
    ct600_periods: ct600Periods.map((p) => ({
      period: p.period,
      accounts_period_end: p.accountsPeriodEnd,
      filing_deadline: p.filingDeadline,
      overdue: p.overdue,
      filings: [],
    })),
    sandbox: true,
  };
}
