import { describe, expect, it } from "vitest";
import { longDate, parseLongDate } from "./long-date.ts";

describe("dates in words", () => {
  it("writes and reads dates in words", () => {
    expect(longDate("2026-03-01")).toBe("1 March 2026");
    expect(parseLongDate("1 March 2026")).toBe("2026-03-01");
    expect(parseLongDate("31 February 2026")).toBeUndefined();
    expect(parseLongDate("March 1 2026")).toBeUndefined();
  });

  it("refuses to write a day that does not exist", () => {
    expect(() => longDate("2025-02-29")).toThrow(RangeError);
  });
});
