import { isLongerThanMonths } from "../../accounting-period.ts";
import { addMonths, compareDates, type IsoDate } from "../../calendar-date.ts";
import { splitCt600Period } from "../ct600-period-split.ts";
import type { AccountsPeriodDeadline, Ct600PeriodDeadline } from "./deadline-types.ts";

/** A company's CT600 return is due 12 months after the end of the period it covers. */
export const CT600_FILING_MONTHS = 12;

/**
 * The CT600 returns of each accounts period (split as `splitCt600Period` does: 12 months, then
 * the rest), each due 12 months after it ends. A period the registry gives backwards or longer
 * than 24 months has no returns listed (no valid split exists).
 */
export function deriveCt600Periods(accountsPeriods: readonly AccountsPeriodDeadline[], today: IsoDate): Ct600PeriodDeadline[] {
  return accountsPeriods.flatMap(({ period }) => {
    if (compareDates(period.end, period.start) < 0 || isLongerThanMonths(period.start, period.end, 2 * CT600_FILING_MONTHS)) return [];
    return splitCt600Period(period.start, period.end).map((part) => {
      const filingDeadline = addMonths(part.end, CT600_FILING_MONTHS);
      return { period: part, accountsPeriodEnd: period.end, filingDeadline, overdue: compareDates(today, filingDeadline) > 0 };
    });
  });
}
