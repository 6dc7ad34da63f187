import { londonWallClock } from "@dormant/govtalk";

/** The last minute formatted: every answer of that minute reuses it (the simulator stamps each answer). */
let lastMinute: { minute: number; prefix: string } | undefined;

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/**
 * An instant as the tax authority writes times: its local (Europe/London) wall-clock time with
 * milliseconds and no zone, e.g. 2026-09-29T00:33:06.257. London's offset from UTC is a whole
 * number of hours and changes only on the hour, so the date, hour and minute are converted once
 * per minute (Intl, the costly part) and the seconds and milliseconds taken from the instant.
 */
export function londonDateTime(epochMs: number): string {
  const minute = Math.floor(epochMs / 60_000);
  if (lastMinute?.minute !== minute) {
    const wall = londonWallClock(minute * 60_000);
    lastMinute = { minute, prefix: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}` };
  }
  const withinMinute = epochMs - minute * 60_000;
  const seconds = String(Math.floor(withinMinute / 1000)).padStart(2, "0");
  const millis = String(withinMinute % 1000).padStart(3, "0");
  return `${lastMinute.prefix}:${seconds}.${millis}`;
}
