import { compareDates, type IsoDate } from "../calendar-date.ts";
import type { AccountsFigures, CompanyProfile, FilingHistory } from "../schemas.ts";

/** One set of annual accounts the registry holds. */
export interface FiledAccounts {
  madeUpTo: IsoDate;
  /** Balance-sheet figures, when the source gives them (our simulator only; see schemas.ts). */
  figures: AccountsFigures | undefined;
}

/**
 * The annual accounts in a filing history, latest made-up date first. Only form type `AA`
 * counts: other items in the accounts category (AA01 change of accounting reference date, ...)
 * also carry a `made_up_date` but are not accounts. An AA item without a made-up date cannot be
 * placed in time and is left out.
 */
export function annualAccountsFiled(history: FilingHistory | undefined): FiledAccounts[] {
  const filed: FiledAccounts[] = [];
  for (const item of history?.items ?? []) {
    const madeUpTo = item.description_values?.made_up_date;
    if (item.type === "AA" && madeUpTo !== undefined) {
      filed.push({ madeUpTo, figures: item.accounts_figures });
    }
  }
  return filed.sort((a, b) => compareDates(b.madeUpTo, a.madeUpTo));
}

/** The end of the last accounts the profile reports (`period_end_on`, else the older `made_up_to`). */
export function lastAccountsMadeUpTo(profile: CompanyProfile): IsoDate | undefined {
  const last = profile.accounts?.last_accounts;
  return last?.period_end_on ?? last?.made_up_to;
}

/** Every date the company's accounts are known to be made up to, latest first, no repeats. */
export function accountsMadeUpDates(profile: CompanyProfile, history: FilingHistory | undefined): IsoDate[] {
  const dates = new Set(annualAccountsFiled(history).map((a) => a.madeUpTo));
  const fromProfile = lastAccountsMadeUpTo(profile);
  if (fromProfile !== undefined) dates.add(fromProfile);
  return [...dates].sort((a, b) => compareDates(b, a));
}
