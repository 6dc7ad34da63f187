import { isLongerThanMonths } from "../accounting-period.ts";
import { compareDates, isValidIsoDate, parseIsoDate, type IsoDate } from "../calendar-date.ts";
import type { FieldProblem } from "./field-problem.ts";

/**
 * The longest accounting period the registry accepts (Companies Act 2006 s.391-392: a period
 * may be extended to at most 18 months). It also keeps every CT600 split to two returns.
 */
export const MAX_ACCOUNTING_PERIOD_MONTHS = 18;

/**
 * Business rules for the period being filed. `today` is the caller's current date (in the
 * authorities' time zone, see calendarDateAt); it is a parameter so this stays pure.
 *
 * Paths: problems with the end date alone go to `period_end`; problems with the start date, or
 * with the two together (end before start, too long), go to `period.start`, the field a caller
 * can override when the derived start is not what they expect.
 * - start or end not a real YYYY-MM-DD date;
 * - end before start;
 * - end after today (a period can only be filed once it has ended; ending today is allowed);
 * - longer than 18 months.
 */
export function validatePeriod(start: IsoDate, end: IsoDate, today: IsoDate): FieldProblem[] {
  parseIsoDate(today); // a bad `today` is a programming error, not the caller's problem
  const problems: FieldProblem[] = [];
  const dateMessage = "must be a real date written YYYY-MM-DD";
  if (!isValidIsoDate(start)) problems.push({ path: "period.start", message: dateMessage });
  if (!isValidIsoDate(end)) problems.push({ path: "period_end", message: dateMessage });
  if (problems.length > 0) return problems;

  if (compareDates(end, today) > 0) {
    problems.push({
      path: "period_end",
      message: `period end ${end} is in the future (today is ${today})`,
    });
  }
  if (compareDates(end, start) < 0) {
    problems.push({
      path: "period.start",
      message: `period start ${start} is after period end ${end}`,
    });
  } else if (isLongerThanMonths(start, end, MAX_ACCOUNTING_PERIOD_MONTHS)) {
    problems.push({
      path: "period.start",
      message: `the period ${start} to ${end} is longer than ${MAX_ACCOUNTING_PERIOD_MONTHS} months, the longest accounting period allowed`,
    });
  }
  return problems;
}
