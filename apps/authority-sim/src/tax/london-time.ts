const formatter = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/**
 * An instant as the tax authority writes times: its local (Europe/London) wall-clock time with
 * milliseconds and no zone, e.g. 2026-09-29T00:33:06.257.
 */
export function londonDateTime(epochMs: number): string {
  const parts = Object.fromEntries(formatter.formatToParts(new Date(epochMs)).map((part) => [part.type, part.value]));
  const millis = String(epochMs % 1000).padStart(3, "0");
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${millis}`;
}
