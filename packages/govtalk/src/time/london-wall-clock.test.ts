import { describe, expect, it } from "vitest";
import { londonWallClock, londonWallClockToEpochMs } from "./london-wall-clock.ts";

const HOUR = 3_600_000;

/** The tax submitter's own AcceptedTime reading before the clock was shared: the later occurrence. */
function referenceLater(wall: {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}): number {
  const offsetFormatter = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", timeZoneName: "longOffset" });
  const offsetMinutes = (epochMs: number) => {
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(
      offsetFormatter.formatToParts(new Date(epochMs)).find((part) => part.type === "timeZoneName")?.value ?? "GMT",
    );
    if (!match) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3]);
    return match[1] === "-" ? -minutes : minutes;
  };
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
  const first = asUtc - offsetMinutes(asUtc) * 60_000;
  return asUtc - offsetMinutes(first) * 60_000;
}

/** The GovTalk time stamp reading before the clock was shared: the earlier occurrence (valid dates only). */
function referenceEarlier(wall: { year: number; month: number; day: number; hour: number; minute: number; second: number }): number {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/London",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  for (const offsetMs of [HOUR, 0]) {
    const parts = Object.fromEntries(format.formatToParts(asUtc - offsetMs).map((part) => [part.type, Number(part.value)]));
    if (
      parts.year === wall.year &&
      parts.month === wall.month &&
      parts.day === wall.day &&
      parts.hour === wall.hour &&
      parts.minute === wall.minute &&
      parts.second === wall.second
    )
      return asUtc - offsetMs;
  }
  return asUtc;
}

/** Wall clocks around the clock changes of 2026 (29 March, 25 October, 01:00 UTC) and at random. */
function wallClocks(): Array<{
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}> {
  const walls = [];
  for (const [month, day] of [
    [3, 29],
    [10, 25],
    [3, 28],
    [10, 24],
    [7, 1],
    [1, 15],
  ] as const) {
    for (let minutes = 0; minutes < 24 * 60; minutes += 7) {
      walls.push({
        year: 2026,
        month,
        day,
        hour: Math.floor(minutes / 60),
        minute: minutes % 60,
        second: minutes % 60,
        millisecond: minutes % 1000,
      });
    }
  }
  for (let i = 0; i < 2_000; i += 1) {
    const at = new Date(Date.UTC(2024, 0, 1) + Math.floor(Math.random() * 4 * 365 * 86_400_000));
    walls.push({
      year: at.getUTCFullYear(),
      month: at.getUTCMonth() + 1,
      day: at.getUTCDate(),
      hour: at.getUTCHours(),
      minute: at.getUTCMinutes(),
      second: at.getUTCSeconds(),
      millisecond: at.getUTCMilliseconds(),
    });
  }
  // Out of range fields roll over as in Date.UTC (31 June is 1 July).
  walls.push({ year: 2026, month: 6, day: 31, hour: 12, minute: 0, second: 0, millisecond: 0 });
  return walls;
}

describe("London wall clock", () => {
  it("is GMT in winter and BST in summer, across the changes", () => {
    expect(londonWallClock(Date.UTC(2026, 0, 15, 12, 0, 0))).toEqual({ year: 2026, month: 1, day: 15, hour: 12, minute: 0, second: 0 });
    expect(londonWallClock(Date.UTC(2026, 6, 15, 12, 0, 0))).toEqual({ year: 2026, month: 7, day: 15, hour: 13, minute: 0, second: 0 });
    expect(londonWallClock(Date.UTC(2026, 2, 29, 0, 59, 59))).toMatchObject({ day: 29, hour: 0, minute: 59, second: 59 });
    expect(londonWallClock(Date.UTC(2026, 2, 29, 1, 0, 0))).toMatchObject({ day: 29, hour: 2, minute: 0 });
    expect(londonWallClock(Date.UTC(2026, 8, 28, 23, 33, 6))).toEqual({ year: 2026, month: 9, day: 29, hour: 0, minute: 33, second: 6 });
  });

  it("reads a repeated time as the occurrence asked for, a skipped one as GMT", () => {
    const repeated = { year: 2026, month: 10, day: 25, hour: 1, minute: 30, second: 0 };
    expect(londonWallClockToEpochMs(repeated)).toBe(Date.UTC(2026, 9, 25, 0, 30, 0));
    expect(londonWallClockToEpochMs(repeated, "later")).toBe(Date.UTC(2026, 9, 25, 1, 30, 0));
    expect(londonWallClockToEpochMs({ year: 2026, month: 3, day: 29, hour: 1, minute: 30, second: 0 })).toBe(
      Date.UTC(2026, 2, 29, 1, 30, 0),
    );
    expect(londonWallClockToEpochMs({ year: 2026, month: 9, day: 29, hour: 0, minute: 33, second: 6, millisecond: 257 })).toBe(
      Date.UTC(2026, 8, 28, 23, 33, 6, 257),
    );
  });

  it("reads every wall clock as the GovTalk time stamps (earlier) and the tax submitter (later) read them before", () => {
    for (const wall of wallClocks()) {
      expect(londonWallClockToEpochMs(wall, "later"), JSON.stringify(wall)).toBe(referenceLater(wall));
      const { millisecond, ...toTheSecond } = wall;
      const realDate = new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDate() === wall.day;
      if (realDate) expect(londonWallClockToEpochMs(toTheSecond), JSON.stringify(wall)).toBe(referenceEarlier(toTheSecond));
      expect([0, HOUR]).toContain(londonWallClockToEpochMs(wall, "later") - londonWallClockToEpochMs(wall, "earlier"));
    }
  });
});
