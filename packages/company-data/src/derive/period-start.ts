import { addDays, compareDates, type IsoDate } from "../calendar-date.ts";
import type { CompanyProfile, FilingHistory } from "../schemas.ts";
import { accountsMadeUpDates, lastAccountsMadeUpTo } from "./accounts-filings.ts";

export interface PeriodStartOptions {
  /** The end of the period being filed; without it the next unfiled period is assumed. */
  periodEnd?: IsoDate;
  /** Accounts filing history, a second source of earlier made-up dates. */
  filingHistory?: FilingHistory;
}

/**
 * The first day of the accounting period being filed:
 * 1. when the registry's last accounts are made up to exactly `periodEnd` (this very period
 *    was already filed at the registry, e.g. a CT600 sent after the accounts) and give their
 *    `period_start_on`: that start;
 * 2. else the day after the latest accounts made-up date (from the profile's last accounts or
 *    the AA filings) that is before `periodEnd` (any, when no `periodEnd` is given);
 * 3. else `next_accounts.period_start_on`, unless it is after `periodEnd`;
 * 4. else the incorporation date (`date_of_creation`): the first period.
 */
export function derivePeriodStart(profile: CompanyProfile, options: PeriodStartOptions = {}): IsoDate {
  const { periodEnd, filingHistory } = options;
  const lastStart = profile.accounts?.last_accounts?.period_start_on;
  if (periodEnd !== undefined && lastAccountsMadeUpTo(profile) === periodEnd && lastStart !== undefined) {
    return lastStart;
  }

  const earlier = accountsMadeUpDates(profile, filingHistory).find((date) => periodEnd === undefined || compareDates(date, periodEnd) < 0);
  if (earlier !== undefined) return addDays(earlier, 1);

  const nextStart = profile.accounts?.next_accounts?.period_start_on;
  if (nextStart !== undefined && (periodEnd === undefined || compareDates(nextStart, periodEnd) <= 0)) {
    return nextStart;
  }
  return profile.date_of_creation;
}
