import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLongerThanMonths, isLongerThanTwelveMonths, periodEndAfterMonths } from "./accounting-period.ts";
import { addDays, compareDates, daysBetween, fromDayNumber, toDayNumber } from "./calendar-date.ts";

const isoDate = fc.integer({ min: toDayNumber("1950-01-01"), max: toDayNumber("2150-12-31") }).map(fromDayNumber);

describe("periodEndAfterMonths", () => {
  it.each([
    ["2024-01-01", 12, "2024-12-31"],
    ["2024-04-06", 12, "2025-04-05"],
    ["2023-03-01", 12, "2024-02-29"],
    ["2024-03-01", 12, "2025-02-28"],
    ["2024-02-29", 12, "2025-02-28"],
    ["2024-02-28", 12, "2025-02-27"],
    ["2023-02-28", 12, "2024-02-27"],
    ["2027-02-28", 12, "2028-02-27"],
    ["2028-02-29", 48, "2032-02-28"],
    ["2024-12-31", 12, "2025-12-30"],
    ["2024-01-31", 1, "2024-02-29"],
    ["2023-01-31", 1, "2023-02-28"],
    ["2024-01-30", 1, "2024-02-29"],
    ["2024-01-29", 1, "2024-02-28"],
    ["2024-03-31", 1, "2024-04-30"],
    ["2024-04-30", 1, "2024-05-29"],
    ["2024-12-01", 1, "2024-12-31"],
    ["2024-01-01", 18, "2025-06-30"],
    ["2023-08-31", 6, "2024-02-29"],
    ["2024-01-15", 24, "2026-01-14"],
    // the tax builder's rule-9101 limit was tested with these
    ["2024-04-01", 12, "2025-03-31"],
    ["2024-03-31", 12, "2025-03-30"],
  ])("%s + %i months ends %s", (start, months, end) => {
    expect(periodEndAfterMonths(start, months)).toBe(end);
  });

  it("rejects a non-positive or fractional number of months", () => {
    expect(() => periodEndAfterMonths("2024-01-01", 0)).toThrow(RangeError);
    expect(() => periodEndAfterMonths("2024-01-01", 1.5)).toThrow(RangeError);
    expect(() => periodEndAfterMonths("2024-02-30", 1)).toThrow(RangeError);
  });

  it("a 12-month period spans 365 or 366 days", () => {
    fc.assert(
      fc.property(isoDate, (start) => {
        const days = daysBetween(start, periodEndAfterMonths(start, 12)) + 1;
        return days === 365 || days === 366;
      }),
    );
  });

  it("grows strictly with the number of months", () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: 1, max: 30 }), (start, months) => {
        return (
          compareDates(periodEndAfterMonths(start, months), start) >= 0 &&
          compareDates(periodEndAfterMonths(start, months + 1), periodEndAfterMonths(start, months)) > 0
        );
      }),
    );
  });

  it("twelve 1-month periods back to back end where one 12-month period ends, for starts on the 1st-28th", () => {
    fc.assert(
      fc.property(
        isoDate.filter((d) => Number(d.slice(8)) <= 28),
        (start) => {
          let next = start;
          let end = start;
          for (let i = 0; i < 12; i += 1) {
            end = periodEndAfterMonths(next, 1);
            next = addDays(end, 1);
          }
          return end === periodEndAfterMonths(start, 12);
        },
      ),
    );
  });
});

describe("isLongerThanMonths / isLongerThanTwelveMonths", () => {
  it.each([
    ["2024-01-01", "2024-12-31", false],
    ["2024-01-01", "2025-01-01", true],
    ["2023-03-01", "2024-02-29", false],
    ["2023-03-01", "2024-03-01", true],
    ["2024-02-29", "2025-02-28", false],
    ["2024-02-29", "2025-03-01", true],
    ["2024-05-05", "2024-05-05", false],
    ["2024-01-15", "2025-01-31", true],
  ])("%s to %s longer than 12 months: %s", (start, end, longer) => {
    expect(isLongerThanTwelveMonths(start, end)).toBe(longer);
  });

  it.each([
    ["2023-01-01", "2024-06-30", 18, false],
    ["2023-01-01", "2024-07-01", 18, true],
    ["2024-01-31", "2024-02-29", 1, false],
    ["2024-01-31", "2024-03-01", 1, true],
  ])("%s to %s longer than %i months: %s", (start, end, months, longer) => {
    expect(isLongerThanMonths(start, end, months)).toBe(longer);
  });
});
