import { createHash } from "node:crypto";
import { addDays, addMonths, addMonthsKeepingMonthEnd, compareDates, daysInMonth } from "../calendar-date.ts";
import { nextReferenceDate } from "../derive/deadlines/next-reference-date.ts";
import { registryDueOn } from "../derive/deadlines/registry-due-date.ts";
import type { CompanyProfile, FilingHistory, OfficerList } from "../schemas.ts";

/**
 * The sandbox's registry (test keys): every company number stands for a made-up dormant company
 * whose data is derived from the number and today alone, so that every replica of every service
 * gives the same answers and nothing is looked up or stored. The gateway's sandbox deadlines and
 * the filing service's sandbox validation both read it.
 */

export const SANDBOX_COMPANY_NAME = "SANDBOX SAMPLE COMPANY LIMITED";
export const SANDBOX_DIRECTOR_NAME = "DIRECTOR, Sandbox";

/** Sandbox companies are private companies limited by shares. */
const SANDBOX_COMPANY_TYPE = "ltd";

/** The sandbox company's accounting reference month: 1 + (the first 4 bytes of SHA-256 of the number, mod 12). */
export function sandboxReferenceMonth(companyNumber: string): number {
  return 1 + (createHash("sha256").update(`sandbox-deadlines:${companyNumber}`, "utf8").digest().readUInt32BE(0) % 12);
}

/** The registry jurisdiction a company number's prefix stands for (SC Scotland, NI Northern Ireland). */
export function sandboxJurisdiction(companyNumber: string): "england-wales" | "scotland" | "northern-ireland" {
  if (companyNumber.startsWith("SC")) return "scotland";
  if (companyNumber.startsWith("NI")) return "northern-ireland";
  return "england-wales";
}

/**
 * The registry profile a sandbox company stands for: its accounting reference date is the last
 * day of `sandboxReferenceMonth`; its next accounts (the registry's current period) are the 12
 * months to the earliest reference date whose accounts are not yet due today, the ones before
 * filed. So the current period is never overdue.
 */
export function sandboxProfile(companyNumber: string, today: string): CompanyProfile {
  const month = sandboxReferenceMonth(companyNumber);
  const reference = { day: String(daysInMonth(2000, month)), month: String(month).padStart(2, "0") };
  let end = nextReferenceDate(reference, addMonths(today, -13));
  while (compareDates(registryDueOn(end, SANDBOX_COMPANY_TYPE), today) < 0) end = nextReferenceDate(reference, end);
  const lastEnd = addMonthsKeepingMonthEnd(end, -12);
  const start = addDays(lastEnd, 1);
  return {
    company_name: SANDBOX_COMPANY_NAME,
    company_number: companyNumber,
    company_status: "active",
    type: SANDBOX_COMPANY_TYPE,
    jurisdiction: sandboxJurisdiction(companyNumber),
    date_of_creation: addMonths(start, -24),
    accounts: {
      accounting_reference_date: reference,
      last_accounts: { made_up_to: lastEnd, period_end_on: lastEnd, type: "dormant" },
      next_accounts: { period_start_on: start, period_end_on: end, due_on: registryDueOn(end, SANDBOX_COMPANY_TYPE), overdue: false },
    },
  };
}

/** Everything a filing derives from about a sandbox company: its profile, one director, and its last dormant accounts. */
export function sandboxCompanyRecord(
  companyNumber: string,
  today: string,
): { profile: CompanyProfile; officers: OfficerList; filingHistory: FilingHistory } {
  const profile = sandboxProfile(companyNumber, today);
  const lastEnd = profile.accounts?.last_accounts?.made_up_to;
  return {
    profile,
    officers: { items: [{ name: SANDBOX_DIRECTOR_NAME, officer_role: "director", appointed_on: profile.date_of_creation }] },
    filingHistory: {
      items: lastEnd
        ? [
            {
              category: "accounts",
              type: "AA",
              date: addMonths(lastEnd, 2),
              description: "accounts-with-accounts-type-dormant",
              description_values: { made_up_date: lastEnd },
            },
          ]
        : [],
    },
  };
}
