const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3})\d*)?$/;

const offsetFormatter = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", timeZoneName: "longOffset" });

/** London's offset from UTC, in minutes, at an instant (0 in winter, 60 in summer). */
function londonOffsetMinutes(epochMs: number): number {
  const name = offsetFormatter.formatToParts(new Date(epochMs)).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/**
 * The instant of a time the tax authority writes in London wall-clock time without a zone (its
 * `AcceptedTime`, e.g. 2026-09-29T00:33:06.257), as an ISO 8601 UTC string. A time that carries
 * a zone is taken as it is; anything unreadable gives undefined.
 */
export function londonTimeToIso(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = LOCAL.exec(text.trim());
  if (!match) {
    const zoned = Date.parse(text);
    return /(?:Z|[+-]\d{2}:?\d{2})$/.test(text.trim()) && !Number.isNaN(zoned) ? new Date(zoned).toISOString() : undefined;
  }
  const [, year, month, day, hour, minute, second, millis] = match;
  const asUtc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number((millis ?? "0").padEnd(3, "0")));
  // The offset in force at the wall-clock time: take it at the first guess, then once more at the corrected instant.
  const first = asUtc - londonOffsetMinutes(asUtc) * 60_000;
  return new Date(asUtc - londonOffsetMinutes(first) * 60_000).toISOString();
}
