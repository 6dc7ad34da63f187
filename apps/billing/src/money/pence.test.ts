import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPence, parseGbpToPence, penceToNumber, toPence } from "./pence.ts";

describe("pence", () => {
  it("formats pence as pounds with two decimals", () => {
    expect(formatPence(8000)).toBe("80.00");
    expect(formatPence(0n)).toBe("0.00");
    expect(formatPence(5)).toBe("0.05");
    expect(formatPence(123_456_789_012n)).toBe("1234567890.12");
    expect(formatPence(-2000n)).toBe("-20.00");
    expect(formatPence(-5n)).toBe("-0.05");
  });

  it("parses GBP amounts exactly and refuses everything else", () => {
    expect(parseGbpToPence("100")).toBe(10_000n);
    expect(parseGbpToPence("100.5")).toBe(10_050n);
    expect(parseGbpToPence("0.07")).toBe(7n);
    expect(parseGbpToPence("20.00")).toBe(2000n);
    for (const bad of ["", "-5", "+5", "1e3", "1,000", "£5", "5.005", ".5", "5.", " 5", "12345678901"]) {
      expect(parseGbpToPence(bad)).toBeNull();
    }
  });

  it("round-trips every amount through format and parse", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 9_999_999_999_99n }), (pence) => {
        expect(parseGbpToPence(formatPence(pence))).toBe(pence);
      }),
    );
  });

  it("converts between number and bigint only when exact", () => {
    expect(penceToNumber(2000n)).toBe(2000);
    expect(() => penceToNumber(2n ** 60n)).toThrow(RangeError);
    expect(toPence(2000, "amount")).toBe(2000n);
    expect(toPence(5n, "amount")).toBe(5n);
    expect(() => toPence(20.5, "amount")).toThrow(/whole pence/);
  });
});
