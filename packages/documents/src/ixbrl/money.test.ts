import { describe, expect, it } from "vitest";
import { decimalsFor, formatPounds } from "./money.ts";

describe("money", () => {
  it("formats pence as pounds with thousands separators, without a sign", () => {
    expect(formatPounds(0, 0)).toBe("0");
    expect(formatPounds(10_000, 0)).toBe("100");
    expect(formatPounds(123_456_700, 0)).toBe("1,234,567");
    expect(formatPounds(-123_456_789, 2)).toBe("1,234,567.89");
    expect(formatPounds(5, 2)).toBe("0.05");
  });

  it("uses whole pounds only when every amount is whole pounds", () => {
    expect(decimalsFor([0, 10_000, -500])).toBe(0);
    expect(decimalsFor([10_000, 10_050])).toBe(2);
    expect(() => formatPounds(10_050, 0)).toThrow(RangeError);
    expect(() => formatPounds(1.5, 2)).toThrow(RangeError);
  });
});
