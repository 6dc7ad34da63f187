import { describe, expect, it } from "vitest";
import { formatTimestamp, instantOf, isTimestamp } from "./timestamp.ts";

describe("timestamps", () => {
  it("prints a date-time as written, with its zone when it has one", () => {
    expect(formatTimestamp("2026-09-29T00:33:06.257")).toBe("29 September 2026 at 00:33:06");
    expect(formatTimestamp("2026-09-29T08:15Z")).toBe("29 September 2026 at 08:15:00 UTC");
    expect(formatTimestamp("2026-03-29T01:30:00+01:00")).toBe("29 March 2026 at 01:30:00 (UTC+01:00)");
  });

  it("tells date-times from other text, and demands a zone when asked", () => {
    expect(isTimestamp("2026-09-29T00:33:06.257", false)).toBe(true);
    expect(isTimestamp("2026-09-29T00:33:06.257", true)).toBe(false);
    expect(isTimestamp("2026-02-30T00:00:00Z", false)).toBe(false);
    expect(isTimestamp("2026-09-29T24:00:00Z", false)).toBe(false);
    expect(isTimestamp("2026-09-29", false)).toBe(false);
    expect(() => formatTimestamp("yesterday")).toThrow(RangeError);
  });

  it("turns a zoned date-time into its instant", () => {
    expect(instantOf("2026-09-29T09:15:00+01:00").toISOString()).toBe("2026-09-29T08:15:00.000Z");
    expect(() => instantOf("2026-09-29T09:15:00")).toThrow(RangeError);
  });
});
