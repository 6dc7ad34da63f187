/**
 * Calendar dates in words, `31 March 2026`: the form `ixt:date-day-monthname-year-en` reads and
 * the PDFs print. Parsing and checking `YYYY-MM-DD` is `@dormant/company-data`'s calendar-date.
 */
import { isValidIsoDate, parseIsoDate } from "@dormant/company-data";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** `2026-03-31` -> `31 March 2026`; a RangeError for anything but a real `YYYY-MM-DD` date. */
export function longDate(date: string): string {
  const { year, month, day } = parseIsoDate(date);
  return `${day} ${MONTHS[month - 1] ?? ""} ${year}`;
}

/** Parses `31 March 2026` (day, English month name, year) back to `2026-03-31`, or undefined. */
export function parseLongDate(text: string): string | undefined {
  const match = /^\s*(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})\s*$/.exec(text);
  if (match === null) return undefined;
  const monthIndex = MONTHS.findIndex((name) => name.toLowerCase() === (match[2] ?? "").toLowerCase());
  if (monthIndex < 0) return undefined;
  const iso = `${match[3]}-${String(monthIndex + 1).padStart(2, "0")}-${(match[1] ?? "").padStart(2, "0")}`;
  return isValidIsoDate(iso) ? iso : undefined;
}
