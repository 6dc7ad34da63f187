import { addMonthsKeepingMonthEnd, type IsoDate } from "../../calendar-date.ts";

/** Months after a period's end in which the registry expects accounts: public companies 6, private 9 (Companies Act 2006 s.442). */
export function accountsFilingMonths(companyType: string): number {
  return companyType === "plc" ? 6 : 9;
}

/**
 * The registry's deadline for the accounts of a period that is not the company's first: its end
 * plus the filing months, a month end moving to the target month's end (s.443(3)): a private
 * company's period ending 2024-02-29 is due 2024-11-30.
 */
export function registryDueOn(periodEnd: IsoDate, companyType: string): IsoDate {
  return addMonthsKeepingMonthEnd(periodEnd, accountsFilingMonths(companyType));
}
