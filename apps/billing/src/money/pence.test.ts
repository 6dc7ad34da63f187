import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPence, parseGbpToPence, penceToNumber, toPence } from "./pence.ts";

// Parsing and formatting cases are in @dormant/contracts (api/money.test.ts); here the round trip
// through billing's money module and its bigint/number conversions.
describe("pence", () => {
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
