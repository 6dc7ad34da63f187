import { periodEndAfterMonths, isLongerThanTwelveMonths, type DatePeriod } from "../accounting-period.ts";
import { addDays, compareDates, type IsoDate } from "../calendar-date.ts";

/** A CT600 covers at most 12 months (tax authority business rule 9101). */
export const CT600_MAX_PERIOD_MONTHS = 12;

/**
 * The CT600 periods for an accounting period: the period itself when it is at most 12 months
 * long (exactly 12 months is not split), else the first 12 months and then the rest. The parts
 * are contiguous and cover every day of start..end exactly once.
 *
 * Throws a RangeError when end is before start, or when the rest would itself be longer than
 * 12 months (a period over 24 months cannot be filed as two returns; accounting periods are at
 * most 18 months, see validatePeriod).
 */
export function splitCt600Period(start: IsoDate, end: IsoDate): readonly [DatePeriod] | readonly [DatePeriod, DatePeriod] {
  if (compareDates(end, start) < 0) {
    throw new RangeError(`period end ${end} is before period start ${start}`);
  }
  if (!isLongerThanTwelveMonths(start, end)) return [{ start, end }];
  const firstEnd = periodEndAfterMonths(start, CT600_MAX_PERIOD_MONTHS);
  const secondStart = addDays(firstEnd, 1);
  if (isLongerThanTwelveMonths(secondStart, end)) {
    throw new RangeError(`period ${start} to ${end} is longer than 24 months: it cannot be split in two`);
  }
  return [
    { start, end: firstEnd },
    { start: secondStart, end },
  ];
}
