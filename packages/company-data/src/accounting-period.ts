/**
 * Lengths of accounting periods in calendar months.
 *
 * A period of N months starting on day D ends on the day before day D of the month N months
 * later. When that month has no day D (a start on the 29th, 30th or 31st), the period ends on
 * the last day of that month instead. So:
 *   2024-01-01 + 12 months ends 2024-12-31
 *   2023-03-01 + 12 months ends 2024-02-29   (the day before 2024-03-01)
 *   2024-02-29 + 12 months ends 2025-02-28   (2025 has no 29 February)
 *   2024-01-31 +  1 month  ends 2024-02-29   (February has no 31st)
 * A 12-month period therefore always spans 365 or 366 days, and a period that starts the day
 * after a 12-month period ends begins on the next 12-month cycle.
 */
import { addDays, compareDates, daysInMonth, formatIsoDate, parseIsoDate, type IsoDate } from "./calendar-date.ts";

/** An inclusive range of calendar dates. */
export interface DatePeriod {
  readonly start: IsoDate;
  readonly end: IsoDate;
}

/** The last day of a period of `months` calendar months starting on `start` (see above). */
export function periodEndAfterMonths(start: IsoDate, months: number): IsoDate {
  if (!Number.isSafeInteger(months) || months < 1) {
    throw new RangeError(`months must be a positive integer, got ${months}`);
  }
  const { year, month, day } = parseIsoDate(start);
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  if (targetYear > 9999) throw new RangeError(`${start} + ${months} months is after year 9999`);
  const lastDay = daysInMonth(targetYear, targetMonth);
  if (day > lastDay) return formatIsoDate({ year: targetYear, month: targetMonth, day: lastDay });
  return addDays(formatIsoDate({ year: targetYear, month: targetMonth, day }), -1);
}

/** True when the inclusive period start..end is longer than `months` calendar months. */
export function isLongerThanMonths(start: IsoDate, end: IsoDate, months: number): boolean {
  return compareDates(end, periodEndAfterMonths(start, months)) > 0;
}

/** True when start..end is longer than 12 months; exactly 12 months is not longer. */
export function isLongerThanTwelveMonths(start: IsoDate, end: IsoDate): boolean {
  return isLongerThanMonths(start, end, 12);
}
