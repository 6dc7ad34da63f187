/**
 * London wall-clock time (GMT in winter, BST = UTC+1 in summer), the clock both authorities write
 * their times in without a zone. The one place the platform converts between an instant and
 * London's wall clock; each caller formats or parses its own text on top of it (GovTalk
 * `dd/mm/yyyy hh:mm:ss` time stamps, the Transaction Engine's `AcceptedTime`, the simulator's
 * answer times).
 */

/** A London wall-clock time, to the second (milliseconds are the instant's own). */
export interface LondonWallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

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

/** The London wall-clock time at an instant (epoch ms). */
export function londonWallClock(epochMs: number): LondonWallClock {
  const parts = Object.fromEntries(FORMAT.formatToParts(epochMs).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const HOUR_MS = 3_600_000;

/**
 * The instant (epoch ms) a London wall-clock time stands for. Fields out of range roll over as in
 * `Date.UTC` (callers that must refuse them check first). A time that occurs twice, in the hour
 * repeated when the clocks go back, is read as its `repeated` occurrence: the `earlier` (BST) or
 * the `later` (GMT) one; a time skipped when the clocks go forward is read as GMT.
 */
export function londonWallClockToEpochMs(
  wall: LondonWallClock & { readonly millisecond?: number },
  repeated: "earlier" | "later" = "earlier",
): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond ?? 0);
  const target = new Date(asUtc);
  // London is UTC or UTC+1: try each offset, in the order that picks the wanted occurrence.
  for (const offsetMs of repeated === "earlier" ? [HOUR_MS, 0] : [0, HOUR_MS]) {
    const instant = asUtc - offsetMs;
    const p = londonWallClock(instant);
    if (
      p.year === target.getUTCFullYear() &&
      p.month === target.getUTCMonth() + 1 &&
      p.day === target.getUTCDate() &&
      p.hour === target.getUTCHours() &&
      p.minute === target.getUTCMinutes() &&
      p.second === target.getUTCSeconds()
    ) {
      return instant;
    }
  }
  return asUtc;
}
