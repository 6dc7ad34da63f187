import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLongerThanTwelveMonths, periodEndAfterMonths } from "../accounting-period.ts";
import { addDays, compareDates, daysBetween, fromDayNumber, toDayNumber } from "../calendar-date.ts";
import { splitCt600Period } from "./ct600-period-split.ts";

describe("splitCt600Period", () => {
  it.each([
    // at most 12 months: one part
    ["2024-01-01", "2024-12-31", [["2024-01-01", "2024-12-31"]]],
    ["2023-04-01", "2024-03-31", [["2023-04-01", "2024-03-31"]]],
    ["2023-03-01", "2024-02-29", [["2023-03-01", "2024-02-29"]]],
    ["2024-02-29", "2025-02-28", [["2024-02-29", "2025-02-28"]]],
    ["2023-02-28", "2024-02-27", [["2023-02-28", "2024-02-27"]]],
    ["2024-05-05", "2024-05-05", [["2024-05-05", "2024-05-05"]]],
    ["2024-01-15", "2024-06-30", [["2024-01-15", "2024-06-30"]]],
    ["2024-01-31", "2025-01-30", [["2024-01-31", "2025-01-30"]]],
    // one day over 12 months
    [
      "2024-01-01",
      "2025-01-01",
      [
        ["2024-01-01", "2024-12-31"],
        ["2025-01-01", "2025-01-01"],
      ],
    ],
    [
      "2023-03-01",
      "2024-03-01",
      [
        ["2023-03-01", "2024-02-29"],
        ["2024-03-01", "2024-03-01"],
      ],
    ],
    [
      "2024-02-29",
      "2025-03-01",
      [
        ["2024-02-29", "2025-02-28"],
        ["2025-03-01", "2025-03-01"],
      ],
    ],
    [
      "2023-02-28",
      "2024-02-28",
      [
        ["2023-02-28", "2024-02-27"],
        ["2024-02-28", "2024-02-28"],
      ],
    ],
    [
      "2024-01-31",
      "2025-01-31",
      [
        ["2024-01-31", "2025-01-30"],
        ["2025-01-31", "2025-01-31"],
      ],
    ],
    // first accounts: incorporated mid-month, reference date at the end of the month a year on
    [
      "2024-01-15",
      "2025-01-31",
      [
        ["2024-01-15", "2025-01-14"],
        ["2025-01-15", "2025-01-31"],
      ],
    ],
    // 16 months
    [
      "2023-01-15",
      "2024-05-14",
      [
        ["2023-01-15", "2024-01-14"],
        ["2024-01-15", "2024-05-14"],
      ],
    ],
    // 18 months, the longest accounting period
    [
      "2023-07-01",
      "2024-12-31",
      [
        ["2023-07-01", "2024-06-30"],
        ["2024-07-01", "2024-12-31"],
      ],
    ],
    // across a leap day in the second part
    [
      "2023-06-01",
      "2024-11-30",
      [
        ["2023-06-01", "2024-05-31"],
        ["2024-06-01", "2024-11-30"],
      ],
    ],
    // exactly 24 months: two full years
    [
      "2023-01-01",
      "2024-12-31",
      [
        ["2023-01-01", "2023-12-31"],
        ["2024-01-01", "2024-12-31"],
      ],
    ],
  ])("%s to %s gives %j", (start, end, parts) => {
    expect(splitCt600Period(start, end)).toEqual(parts.map(([s, e]) => ({ start: s, end: e })));
  });

  it.each([
    ["2024-05-02", "2024-05-01"],
    ["2023-01-01", "2025-01-01"],
    ["2024-02-30", "2024-12-31"],
    ["2024-01-01", "2024-13-01"],
  ])("refuses %s to %s", (start, end) => {
    expect(() => splitCt600Period(start, end)).toThrow(RangeError);
  });

  // Any period from one day up to 24 months.
  const period = fc
    .integer({ min: toDayNumber("1990-01-01"), max: toDayNumber("2100-12-31") })
    .map(fromDayNumber)
    .chain((start) =>
      fc
        .integer({ min: 0, max: daysBetween(start, periodEndAfterMonths(start, 24)) })
        .map((length) => ({ start, end: addDays(start, length) })),
    );

  it("parts are contiguous, in order, and cover every day of the period exactly once", () => {
    fc.assert(
      fc.property(period, ({ start, end }) => {
        const parts = splitCt600Period(start, end);
        const first = parts[0];
        const last = parts[parts.length - 1];
        if (first === undefined || last === undefined) return false;
        const daysCovered = parts.reduce((sum, p) => sum + daysBetween(p.start, p.end) + 1, 0);
        const contiguous = parts.length === 1 || (parts[1] !== undefined && parts[1].start === addDays(first.end, 1));
        return (
          first.start === start &&
          last.end === end &&
          contiguous &&
          parts.every((p) => compareDates(p.start, p.end) <= 0) &&
          daysCovered === daysBetween(start, end) + 1
        );
      }),
    );
  });

  it("no part is longer than 12 months, and the first part of a split is exactly 12 months", () => {
    fc.assert(
      fc.property(period, ({ start, end }) => {
        const parts = splitCt600Period(start, end);
        const noneTooLong = parts.every((p) => !isLongerThanTwelveMonths(p.start, p.end));
        const splitOnlyWhenLonger = (parts.length === 2) === isLongerThanTwelveMonths(start, end);
        const firstIsTwelveMonths = parts.length === 1 || parts[0]?.end === periodEndAfterMonths(start, 12);
        return noneTooLong && splitOnlyWhenLonger && firstIsTwelveMonths;
      }),
    );
  });
});
