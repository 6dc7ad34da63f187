import { describe, expect, it } from "vitest";
import { isCalendarDate, lastDayOfTwelveMonths } from "./calendar-date.ts";

describe("calendar dates", () => {
  it.each([
    ["2024-02-29", true], ["2025-02-29", false], ["2000-02-29", true], ["1900-02-29", false],
    ["2025-04-31", false], ["2025-12-31", true], ["2025-1-01", false], ["2025-00-10", false], ["20250101", false],
  ])("%s is a calendar date: %s", (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });

  it.each([
    ["2024-04-01", "2025-03-31"],
    ["2024-01-01", "2024-12-31"],
    ["2024-02-29", "2025-02-28"],
    ["2023-03-01", "2024-02-29"],
    ["2024-03-31", "2025-03-30"],
    ["2024-12-31", "2025-12-30"],
  ])("a 12-month period from %s ends at the latest on %s", (start, end) => {
    expect(lastDayOfTwelveMonths(start)).toBe(end);
  });
});
