/**
 * Calendar dates as `YYYY-MM-DD` strings, computed with integer day numbers (days since
 * 1970-01-01 in the proleptic Gregorian calendar). Nothing here uses local-time `Date`
 * arithmetic, so results never depend on the machine's time zone or on daylight saving.
 * Years are limited to 0001-9999, the range the four-digit format can hold.
 */

/** A calendar date written `YYYY-MM-DD`. */
export type IsoDate = string;

export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

export function daysInMonth(year: number, month: number): number {
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`month must be 1-12, got ${month}`);
  }
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

function isValidCalendarDate(date: CalendarDate): boolean {
  const { year, month, day } = date;
  return (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 1 &&
    year <= 9999 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

function matchIsoDate(value: string): CalendarDate | null {
  const match = ISO_DATE.exec(value);
  if (match === null) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isValidCalendarDate(date) ? date : null;
}

/** True for a real calendar date written exactly `YYYY-MM-DD` (2023-02-29 is false). */
export function isValidIsoDate(value: string): boolean {
  return matchIsoDate(value) !== null;
}

/** Parses `YYYY-MM-DD`; throws a RangeError for anything else or a day that does not exist. */
export function parseIsoDate(value: string): CalendarDate {
  const date = matchIsoDate(value);
  if (date === null) throw new RangeError(`not a valid YYYY-MM-DD date: ${JSON.stringify(value)}`);
  return date;
}

export function formatIsoDate(date: CalendarDate): IsoDate {
  if (!isValidCalendarDate(date)) {
    throw new RangeError(`not a valid calendar date: ${JSON.stringify(date)}`);
  }
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

// Day-number conversions follow the well-known civil-from-days algorithm (eras of 400 years
// starting on 1 March), using integer division only.
function dayNumberOf({ year, month, day }: CalendarDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = (month + 9) % 12;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function calendarDateOf(dayNumber: number): CalendarDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** Days since 1970-01-01 (negative before it). */
export function toDayNumber(date: IsoDate): number {
  return dayNumberOf(parseIsoDate(date));
}

export function fromDayNumber(dayNumber: number): IsoDate {
  if (!Number.isSafeInteger(dayNumber)) {
    throw new RangeError(`day number must be an integer, got ${dayNumber}`);
  }
  return formatIsoDate(calendarDateOf(dayNumber));
}

export function addDays(date: IsoDate, days: number): IsoDate {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be an integer, got ${days}`);
  return fromDayNumber(toDayNumber(date) + days);
}

/**
 * Moves by whole calendar months keeping the day of the month, clamped to the last day of the
 * target month when it is shorter: 2024-01-31 + 1 month = 2024-02-29, 2024-02-29 + 12 = 2025-02-28.
 */
export function addMonths(date: IsoDate, months: number): IsoDate {
  if (!Number.isSafeInteger(months)) {
    throw new RangeError(`months must be an integer, got ${months}`);
  }
  const { year, month, day } = parseIsoDate(date);
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  if (targetYear < 1 || targetYear > 9999) {
    throw new RangeError(`${date} + ${months} months is outside years 0001-9999`);
  }
  return formatIsoDate({
    year: targetYear,
    month: targetMonth,
    day: Math.min(day, daysInMonth(targetYear, targetMonth)),
  });
}

/** True when the date is the last day of its month (2024-02-29, 2023-02-28, 2024-04-30). */
export function isLastDayOfMonth(date: IsoDate): boolean {
  const { year, month, day } = parseIsoDate(date);
  return day === daysInMonth(year, month);
}

/**
 * `addMonths`, except that the last day of a month moves to the last day of the target month:
 * the registry's "corresponding date" for filing periods (Companies Act 2006 s.443(3)), so
 * 2024-02-29 + 9 = 2024-11-30 and 2023-06-30 + 9 = 2024-03-31, where addMonths gives the 29th
 * and the 30th.
 */
export function addMonthsKeepingMonthEnd(date: IsoDate, months: number): IsoDate {
  const moved = addMonths(date, months);
  if (!isLastDayOfMonth(date)) return moved;
  const { year, month } = parseIsoDate(moved);
  return formatIsoDate({ year, month, day: daysInMonth(year, month) });
}

/** Negative when a is earlier, 0 when equal, positive when a is later. */
export function compareDates(a: IsoDate, b: IsoDate): number {
  return Math.sign(toDayNumber(a) - toDayNumber(b));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toDayNumber(to) - toDayNumber(from);
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar date an instant falls on in a time zone (default Europe/London, the
 * authorities' clock). Callers pass the instant, so pure code never reads the clock.
 */
export function calendarDateAt(instant: Date, timeZone = "Europe/London"): IsoDate {
  let formatter = dateFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
    });
    dateFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return formatIsoDate({ year: part("year"), month: part("month"), day: part("day") });
}
