import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonths,
  addMonthsKeepingMonthEnd,
  calendarDateAt,
  compareDates,
  daysBetween,
  daysInMonth,
  formatIsoDate,
  fromDayNumber,
  isLastDayOfMonth,
  isLeapYear,
  isValidIsoDate,
  parseIsoDate,
  toDayNumber,
} from "./calendar-date.ts";

/** Any valid date in 1900-2200 as an ISO string (generated from a day number). */
const isoDate = fc.integer({ min: toDayNumber("1900-01-01"), max: toDayNumber("2200-12-31") }).map(fromDayNumber);

describe("isLeapYear / daysInMonth", () => {
  it.each([
    [2024, true],
    [2023, false],
    [2000, true],
    [1900, false],
    [2100, false],
    [2400, true],
  ])("isLeapYear(%i) is %s", (year, leap) => {
    expect(isLeapYear(year)).toBe(leap);
  });

  it.each([
    [2024, 2, 29],
    [2023, 2, 28],
    [1900, 2, 28],
    [2000, 2, 29],
    [2024, 1, 31],
    [2024, 4, 30],
    [2024, 12, 31],
    [2024, 11, 30],
  ])("daysInMonth(%i, %i) is %i", (year, month, days) => {
    expect(daysInMonth(year, month)).toBe(days);
  });

  it("rejects a month outside 1-12", () => {
    expect(() => daysInMonth(2024, 13)).toThrow(RangeError);
    expect(() => daysInMonth(2024, 0)).toThrow(RangeError);
  });
});

describe("isValidIsoDate / parseIsoDate / formatIsoDate", () => {
  it.each([
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["1900-02-29", false],
    ["2000-02-29", true],
    ["2024-04-31", false],
    ["2024-12-31", true],
    ["2024-13-01", false],
    ["2024-00-10", false],
    ["2024-01-00", false],
    ["0000-01-01", false],
    ["0001-01-01", true],
    ["9999-12-31", true],
    ["2024-1-01", false],
    ["2024-01-01T00:00:00Z", false],
    [" 2024-01-01", false],
    ["20240101", false],
    ["", false],
    ["2024-01-0a", false],
    // cases the tax builder's and the accounts renderer's own date checks were tested with
    ["2025-02-29", false],
    ["2025-04-31", false],
    ["2025-12-31", true],
    ["2025-1-01", false],
    ["2025-4-01", false],
    ["2025-00-10", false],
    ["20250101", false],
    ["2025-04-01T00:00:00Z", false],
  ])("isValidIsoDate(%j) is %s", (value, valid) => {
    expect(isValidIsoDate(value)).toBe(valid);
  });

  it("parses and formats with zero padding", () => {
    expect(parseIsoDate("0987-03-04")).toEqual({ year: 987, month: 3, day: 4 });
    expect(formatIsoDate({ year: 987, month: 3, day: 4 })).toBe("0987-03-04");
  });

  it("throws a RangeError on an invalid date", () => {
    expect(() => parseIsoDate("2023-02-29")).toThrow(RangeError);
    expect(() => formatIsoDate({ year: 2023, month: 2, day: 29 })).toThrow(RangeError);
    expect(() => formatIsoDate({ year: 10000, month: 1, day: 1 })).toThrow(RangeError);
  });

  it("format(parse(x)) is x for every valid date", () => {
    fc.assert(fc.property(isoDate, (d) => formatIsoDate(parseIsoDate(d)) === d));
  });
});

describe("day numbers", () => {
  it.each([
    ["1970-01-01", 0],
    ["1970-01-02", 1],
    ["1969-12-31", -1],
    ["2000-03-01", 11017],
    ["2024-02-29", 19782],
    ["0001-01-01", -719162],
    ["9999-12-31", 2932896],
  ])("toDayNumber(%s) is %i", (date, n) => {
    expect(toDayNumber(date)).toBe(n);
    expect(fromDayNumber(n)).toBe(date);
  });

  it("agrees with Date.UTC (used here only as an oracle)", () => {
    fc.assert(
      fc.property(isoDate, (d) => {
        const { year, month, day } = parseIsoDate(d);
        return toDayNumber(d) === Date.UTC(year, month - 1, day) / 86_400_000;
      }),
    );
  });

  it("consecutive day numbers are consecutive dates", () => {
    fc.assert(
      fc.property(isoDate, (d) => {
        const next = fromDayNumber(toDayNumber(d) + 1);
        return compareDates(next, d) > 0 && daysBetween(d, next) === 1;
      }),
    );
  });

  it("rejects non-integers", () => {
    expect(() => fromDayNumber(1.5)).toThrow(RangeError);
    expect(() => addDays("2024-01-01", 0.5)).toThrow(RangeError);
  });
});

describe("addDays", () => {
  it.each([
    ["2024-02-28", 1, "2024-02-29"],
    ["2024-02-29", 1, "2024-03-01"],
    ["2023-02-28", 1, "2023-03-01"],
    ["2024-12-31", 1, "2025-01-01"],
    ["2025-01-01", -1, "2024-12-31"],
    ["2024-03-01", -1, "2024-02-29"],
    ["2024-01-01", 366, "2025-01-01"],
    ["2023-01-01", 365, "2024-01-01"],
    ["2024-03-31", 0, "2024-03-31"],
    ["2024-03-30", 2, "2024-04-01"],
    ["2025-04-01", -1, "2025-03-31"],
  ])("%s + %i days = %s", (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it("is undone by subtracting the same number of days", () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: -5000, max: 5000 }), (d, n) => {
        return addDays(addDays(d, n), -n) === d;
      }),
    );
  });
});

describe("addMonths", () => {
  it.each([
    ["2024-01-15", 1, "2024-02-15"],
    ["2024-01-31", 1, "2024-02-29"],
    ["2023-01-31", 1, "2023-02-28"],
    ["2024-03-31", 1, "2024-04-30"],
    ["2024-02-29", 12, "2025-02-28"],
    ["2024-02-29", 48, "2028-02-29"],
    ["2024-12-31", 2, "2025-02-28"],
    ["2024-11-30", 3, "2025-02-28"],
    ["2024-03-31", -1, "2024-02-29"],
    ["2024-01-10", -1, "2023-12-10"],
    ["2024-05-31", -12, "2023-05-31"],
    ["2024-06-15", 0, "2024-06-15"],
    ["2023-04-30", 10, "2024-02-29"],
    ["2025-01-31", 1, "2025-02-28"],
    ["2024-03-01", 12, "2025-03-01"],
  ])("%s + %i months = %s", (date, months, expected) => {
    expect(addMonths(date, months)).toBe(expected);
  });

  it("keeps the day of month when the target month has it, else clamps to its last day", () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: -240, max: 240 }), (d, n) => {
        const from = parseIsoDate(d);
        const to = parseIsoDate(addMonths(d, n));
        const monthDistance = (to.year - from.year) * 12 + (to.month - from.month);
        return monthDistance === n && to.day === Math.min(from.day, daysInMonth(to.year, to.month));
      }),
    );
  });

  it("refuses to leave years 0001-9999", () => {
    expect(() => addMonths("9999-12-01", 1)).toThrow(RangeError);
    expect(() => addMonths("0001-01-01", -1)).toThrow(RangeError);
  });
});

describe("addMonthsKeepingMonthEnd", () => {
  it.each([
    ["2024-02-29", 9, "2024-11-30"],
    ["2023-02-28", 9, "2023-11-30"],
    ["2023-06-30", 9, "2024-03-31"],
    ["2024-03-31", 9, "2024-12-31"],
    ["2024-05-31", 9, "2025-02-28"],
    ["2023-05-31", 9, "2024-02-29"],
    ["2024-02-28", 9, "2024-11-28"],
    ["2024-01-15", 9, "2024-10-15"],
    ["2024-02-29", 12, "2025-02-28"],
    ["2023-02-28", 12, "2024-02-29"],
  ])("%s + %i months = %s", (date, months, expected) => {
    expect(addMonthsKeepingMonthEnd(date, months)).toBe(expected);
  });

  it("is addMonths except that a month end stays a month end", () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: -240, max: 240 }), (d, n) => {
        const moved = addMonthsKeepingMonthEnd(d, n);
        return isLastDayOfMonth(d)
          ? isLastDayOfMonth(moved) && moved.slice(0, 7) === addMonths(d, n).slice(0, 7)
          : moved === addMonths(d, n);
      }),
    );
  });
});

describe("compareDates / daysBetween", () => {
  it.each([
    ["2024-01-01", "2024-01-02", -1],
    ["2024-01-02", "2024-01-01", 1],
    ["2024-01-01", "2024-01-01", 0],
    ["2023-12-31", "2024-01-01", -1],
  ])("compareDates(%s, %s) has sign %i", (a, b, sign) => {
    expect(compareDates(a, b)).toBe(sign);
  });

  it("counts days across a leap day", () => {
    expect(daysBetween("2024-02-28", "2024-03-01")).toBe(2);
    expect(daysBetween("2023-02-28", "2023-03-01")).toBe(1);
    expect(daysBetween("2025-01-01", "2024-01-01")).toBe(-366);
  });

  it("rejects invalid input", () => {
    expect(() => compareDates("2024-02-30", "2024-01-01")).toThrow(RangeError);
  });
});

describe("calendarDateAt", () => {
  it.each([
    // 23:30 UTC in British Summer Time is already the next day in London.
    ["2024-06-30T23:30:00Z", "Europe/London", "2024-07-01"],
    // In winter London is on UTC.
    ["2024-12-31T23:30:00Z", "Europe/London", "2024-12-31"],
    ["2024-03-31T00:30:00Z", "Europe/London", "2024-03-31"],
    ["2024-01-01T03:00:00Z", "America/New_York", "2023-12-31"],
    ["2024-02-29T12:00:00Z", "UTC", "2024-02-29"],
  ])("%s in %s is %s", (instant, zone, expected) => {
    expect(calendarDateAt(new Date(instant), zone)).toBe(expected);
  });

  it("defaults to Europe/London", () => {
    expect(calendarDateAt(new Date("2024-06-30T23:30:00Z"))).toBe("2024-07-01");
  });
});
