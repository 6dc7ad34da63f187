import { compareDates, type IsoDate } from "../calendar-date.ts";
import type { CompanyProfile, FilingHistory } from "../schemas.ts";
import { accountsMadeUpDates } from "./accounts-filings.ts";

export interface FirstYearOptions {
  /** The start of the period being filed; without it, any filed accounts count. */
  periodStart?: IsoDate;
  filingHistory?: FilingHistory;
}

/**
 * Whether the period being filed is the company's first accounting period: no accounts are
 * made up to a date before `periodStart`. Accounts made up to a later date (this same period,
 * already filed at the registry) do not count. Without `periodStart`: no accounts filed at all.
 */
export function deriveIsFirstYear(profile: CompanyProfile, options: FirstYearOptions = {}): boolean {
  const { periodStart, filingHistory } = options;
  return !accountsMadeUpDates(profile, filingHistory).some((date) => periodStart === undefined || compareDates(date, periodStart) < 0);
}
