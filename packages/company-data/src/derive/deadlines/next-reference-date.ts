import { compareDates, daysInMonth, formatIsoDate, parseIsoDate, type IsoDate } from "../../calendar-date.ts";
import type { AccountingReferenceDate } from "../../schemas.ts";

/**
 * The first occurrence of the accounting reference date after `after`. A day the month lacks
 * (29 February in a common year, 31 April) is that month's last day.
 */
export function nextReferenceDate(reference: AccountingReferenceDate, after: IsoDate): IsoDate {
  const day = Number(reference.day);
  const month = Number(reference.month);
  const { year } = parseIsoDate(after);
  const inYear = (y: number) => formatIsoDate({ year: y, month, day: Math.min(day, daysInMonth(y, month)) });
  const candidate = inYear(year);
  return compareDates(candidate, after) > 0 ? candidate : inYear(year + 1);
}
