import { createHash } from "node:crypto";
import {
  addDays,
  addMonthsKeepingMonthEnd,
  addMonths,
  type CompanyProfile,
  compareDates,
  daysInMonth,
  deriveCompanyDeadlines,
  nextReferenceDate,
  registryDueOn,
} from "@dormant/company-data";
import type { CompanyDeadlines } from "@dormant/contracts";
import { SAMPLE_COMPANY_NAME } from "./sample-facts.ts";

/** Sandbox companies are private companies limited by shares. */
const SANDBOX_COMPANY_TYPE = "ltd";

/** The sandbox company's accounting reference month: 1 + (the first 4 bytes of SHA-256 of the number, mod 12). */
export function sandboxReferenceMonth(companyNumber: string): number {
  return 1 + (createHash("sha256").update(`sandbox-deadlines:${companyNumber}`, "utf8").digest().readUInt32BE(0) % 12);
}

/**
 * The registry profile a sandbox company stands for, from its number and today alone: its
 * accounting reference date is the last day of `sandboxReferenceMonth`; its next accounts (the
 * registry's current period) are the 12 months to the earliest reference date whose accounts are
 * not yet due today, the ones before filed. So the current period is never overdue.
 */
export function sandboxProfile(companyNumber: string, today: string): CompanyProfile {
  const month = sandboxReferenceMonth(companyNumber);
  const reference = { day: String(daysInMonth(2000, month)), month: String(month).padStart(2, "0") };
  let end = nextReferenceDate(reference, addMonths(today, -13));
  while (compareDates(registryDueOn(end, SANDBOX_COMPANY_TYPE), today) < 0) end = nextReferenceDate(reference, end);
  const lastEnd = addMonthsKeepingMonthEnd(end, -12);
  const start = addDays(lastEnd, 1);
  return {
    company_name: SAMPLE_COMPANY_NAME,
    company_number: companyNumber,
    company_status: "active",
    type: SANDBOX_COMPANY_TYPE,
    date_of_creation: addMonths(start, -24),
    accounts: {
      accounting_reference_date: reference,
      last_accounts: { made_up_to: lastEnd, period_end_on: lastEnd, type: "dormant" },
      next_accounts: { period_start_on: start, period_end_on: end, due_on: registryDueOn(end, SANDBOX_COMPANY_TYPE), overdue: false },
    },
  };
}

/** A test key's deadlines: the live rule applied to the sandbox profile, with no filings (the sandbox stores none). */
export function sandboxDeadlines(companyNumber: string, today: string): CompanyDeadlines {
  const { accountsPeriods, ct600Periods } = deriveCompanyDeadlines(sandboxProfile(companyNumber, today), today);
  return {
    company_number: companyNumber,
    company_name: SAMPLE_COMPANY_NAME,
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
