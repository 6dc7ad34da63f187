import { describe, expect, it } from "vitest";
import { addDays, addMonths, isIsoDate, longDate, parseLongDate } from "./calendar-date.ts";

describe("calendar dates", () => {
  it("accepts only real YYYY-MM-DD dates", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2025-02-29")).toBe(false);
    expect(isIsoDate("2025-4-01")).toBe(false);
    expect(isIsoDate("2025-04-01T00:00:00Z")).toBe(false);
  });

  it("writes and reads dates in words", () => {
    expect(longDate("2026-03-01")).toBe("1 March 2026");
    expect(parseLongDate("1 March 2026")).toBe("2026-03-01");
    expect(parseLongDate("31 February 2026")).toBeUndefined();
    expect(parseLongDate("March 1 2026")).toBeUndefined();
  });

  it("moves across month and year ends without time-zone drift", () => {
    expect(addDays("2025-04-01", -1)).toBe("2025-03-31");
    expect(addDays("2024-12-31", 1)).toBe("2025-01-01");
    expect(addMonths("2025-01-31", 1)).toBe("2025-02-28");
    expect(addMonths("2024-03-01", 12)).toBe("2025-03-01");
  });
});
