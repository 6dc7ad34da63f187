/**
 * The Transaction Engine's DATA_REQUEST timestamps: `dd/mm/yyyy hh:mm:ss`, UK local time (the
 * form public clients parse from `StatusRecord/TimeStamp`, e.g. php-govtalk's `sendListRequest`:
 * `(\d{2})/(\d{2})/(\d{4}) (\d{2}):(\d{2}):(\d{2})`). The zone is not stated in the message;
 * UK local time is assumed, as for the engine's other timestamps (`AcceptedTime`).
 */
import { londonWallClock, londonWallClockToEpochMs } from "../time/london-wall-clock.ts";

const PATTERN = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** `dd/mm/yyyy hh:mm:ss` in UK local time (GMT or BST) for an instant. */
export function formatGovTalkTimeStamp(instant: Date | number): string {
  const p = londonWallClock(typeof instant === "number" ? instant : instant.getTime());
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
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  return londonWallClockToEpochMs({ year, month, day, hour, minute, second }, "earlier");
}
