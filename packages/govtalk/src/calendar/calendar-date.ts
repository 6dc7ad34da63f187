/**
 * Calendar dates as `YYYY-MM-DD` strings. Arithmetic is done on year, month and day numbers,
 * never on `Date` objects, so no time zone can shift a date.
 */

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Parts {
  year: number;
  month: number;
  day: number;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function parts(date: string): Parts | undefined {
  const match = PATTERN.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

function format({ year, month, day }: Parts): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** True for a real calendar date written `YYYY-MM-DD` (2025-02-29 is not one). */
export function isCalendarDate(value: string): boolean {
  return parts(value) !== undefined;
}

/** The day before `date`. */
function previousDay(date: string): string {
  const p = parts(date);
  if (!p) throw new RangeError(`not a calendar date: ${date}`);
  if (p.day > 1) return format({ ...p, day: p.day - 1 });
  const year = p.month === 1 ? p.year - 1 : p.year;
  const month = p.month === 1 ? 12 : p.month - 1;
  return format({ year, month, day: daysInMonth(year, month) });
}

/**
 * The last day of a period of at most 12 months starting on `start` (the tax authority's rule
 * 9101): the day before its anniversary, which for 29 February is 1 March in a common year.
 */
export function lastDayOfTwelveMonths(start: string): string {
  const p = parts(start);
  if (!p) throw new RangeError(`not a calendar date: ${start}`);
  const year = p.year + 1;
  const anniversary = p.day > daysInMonth(year, p.month) ? { year, month: p.month + 1, day: 1 } : { ...p, year };
  return previousDay(format(anniversary));
}
