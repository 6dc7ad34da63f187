/**
 * The Transaction Engine's DATA_REQUEST timestamps: `dd/mm/yyyy hh:mm:ss`, UK local time (the
 * form public clients parse from `StatusRecord/TimeStamp`, e.g. php-govtalk's `sendListRequest`:
 * `(\d{2})/(\d{2})/(\d{4}) (\d{2}):(\d{2}):(\d{2})`). The zone is not stated in the message;
 * UK local time is assumed, as for the engine's other timestamps (`AcceptedTime`).
 */
const FORMAT = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

const PATTERN = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

function londonParts(instant: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = Object.fromEntries(FORMAT.formatToParts(instant).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** `dd/mm/yyyy hh:mm:ss` in UK local time (GMT or BST) for an instant. */
export function formatGovTalkTimeStamp(instant: Date | number): string {
  const p = londonParts(typeof instant === "number" ? instant : instant.getTime());
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/**
 * The instant a `dd/mm/yyyy hh:mm:ss` UK local time stands for (epoch ms), or undefined for any
 * other text or an impossible date. A time repeated when the clocks go back is read as the first
 * (BST) one; a time skipped when they go forward as GMT.
 */
export function parseGovTalkTimeStamp(text: string): number | undefined {
  const match = PATTERN.exec(text.trim());
  if (!match) return undefined;
  const [day, month, year, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(asUtc);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  // UK local is UTC or UTC+1: try BST first, then GMT.
  for (const offsetMs of [3_600_000, 0]) {
    const instant = asUtc - offsetMs;
    const p = londonParts(instant);
    if (p.year === year && p.month === month && p.day === day && p.hour === hour && p.minute === minute && p.second === second) return instant;
  }
  return asUtc;
}
