import { isValidIsoDate } from "@dormant/company-data";
import { longDate } from "../ixbrl/long-date.ts";

/**
 * Date-times as the platform and the tax authority write them: `YYYY-MM-DDTHH:MM[:SS[.fff]]`
 * followed by `Z`, an offset `+HH:MM`, or nothing (the authority's `AcceptedTime` is UK time
 * without an offset). They are printed as written, never moved to another time zone.
 */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/;

interface TimestampParts {
  readonly date: string;
  readonly time: string;
  readonly zone: string | undefined;
}

function parse(text: string): TimestampParts | undefined {
  const match = TIMESTAMP.exec(text);
  if (match === null) return undefined;
  const date = match[1] ?? "";
  if (!isValidIsoDate(date)) return undefined;
  return { date, time: `${match[2]}:${match[3]}:${match[4] ?? "00"}`, zone: match[5] };
}

/** Whether `text` is a date-time in the form above; `requireZone` also demands `Z` or an offset. */
export function isTimestamp(text: string, requireZone: boolean): boolean {
  const parts = parse(text);
  return parts !== undefined && (!requireZone || parts.zone !== undefined);
}

/** `2026-09-29T00:33:06.257` -> `29 September 2026 at 00:33:06`; `Z` adds ` UTC`, an offset ` (UTC+01:00)`. */
export function formatTimestamp(text: string): string {
  const parts = parse(text);
  if (parts === undefined) throw new RangeError(`Not a date-time: ${JSON.stringify(text)}`);
  const zone = parts.zone === undefined ? "" : parts.zone === "Z" ? " UTC" : ` (UTC${parts.zone})`;
  return `${longDate(parts.date)} at ${parts.time}${zone}`;
}

/** The instant of a date-time that carries `Z` or an offset. */
export function instantOf(text: string): Date {
  if (!isTimestamp(text, true)) throw new RangeError(`Not a date-time with a UTC offset: ${JSON.stringify(text)}`);
  return new Date(text);
}
