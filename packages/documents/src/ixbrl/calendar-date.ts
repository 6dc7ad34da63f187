/**
 * Calendar dates as `YYYY-MM-DD` strings. Arithmetic goes through UTC midnight only, so no local
 * time zone can shift a day.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const MONTHS = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
] as const;

function parts(date: string): { year: number; month: number; day: number } | undefined {
  const match = ISO_DATE.exec(date);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

/** Whether `date` is a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(date: string): boolean {
  return parts(date) !== undefined;
}

function requireParts(date: string): { year: number; month: number; day: number } {
  const result = parts(date);
  if (result === undefined) throw new RangeError(`Not a YYYY-MM-DD calendar date: ${JSON.stringify(date)}`);
  return result;
}

/** `2026-03-31` -> `31 March 2026` (the form `ixt:date-day-monthname-year-en` reads). */
export function longDate(date: string): string {
  const { year, month, day } = requireParts(date);
  return `${day} ${MONTHS[month - 1] ?? ""} ${year}`;
}

/** `date` moved by whole days (negative for earlier). */
export function addDays(date: string, days: number): string {
  const { year, month, day } = requireParts(date);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** `date` moved by whole months, clamped to the end of a shorter month (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = requireParts(date);
  const lastDay = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

/** Parses `31 March 2026` (day, English month name, year) back to `2026-03-31`, or undefined. */
export function parseLongDate(text: string): string | undefined {
  const match = /^\s*(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})\s*$/.exec(text);
  if (match === null) return undefined;
  const monthIndex = MONTHS.findIndex((name) => name.toLowerCase() === (match[2] ?? "").toLowerCase());
  if (monthIndex < 0) return undefined;
  const iso = `${match[3]}-${String(monthIndex + 1).padStart(2, "0")}-${(match[1] ?? "").padStart(2, "0")}`;
  return isIsoDate(iso) ? iso : undefined;
}
