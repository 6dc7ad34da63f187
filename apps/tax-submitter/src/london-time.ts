import { londonWallClockToEpochMs } from "@dormant/govtalk";

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3})\d*)?$/;

/**
 * The instant of a time the tax authority writes in London wall-clock time without a zone (its
 * `AcceptedTime`, e.g. 2026-09-29T00:33:06.257), as an ISO 8601 UTC string; in the hour repeated
 * when the clocks go back, the later (GMT) one. A time that carries a zone is taken as it is;
 * anything unreadable gives undefined.
 */
export function londonTimeToIso(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = LOCAL.exec(text.trim());
  if (!match) {
    const zoned = Date.parse(text);
    return /(?:Z|[+-]\d{2}:?\d{2})$/.test(text.trim()) && !Number.isNaN(zoned) ? new Date(zoned).toISOString() : undefined;
  }
  const [, year, month, day, hour, minute, second, millis] = match;
  const wall = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
  return new Date(londonWallClockToEpochMs({ ...wall, millisecond: Number((millis ?? "0").padEnd(3, "0")) }, "later")).toISOString();
}
