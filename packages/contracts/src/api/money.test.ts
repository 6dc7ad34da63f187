import { describe, expect, it } from "vitest";
import { formatPence, parseGbpToPence } from "./money.ts";

describe("parseGbpToPence", () => {
  it.each([
    ["0", 0n],
    ["100", 10_000n],
    ["100.5", 10_050n],
    ["100.50", 10_050n],
    ["0.01", 1n],
    ["0.07", 7n],
    ["0.29", 29n], // 0.29 * 100 is 28.999... in binary floating point
    ["1.10", 110n],
    ["20.00", 2000n],
    ["9999999999.99", 999_999_999_999n],
  ])("reads %s as %s pence", (text, pence) => {
    expect(parseGbpToPence(text)).toBe(pence);
  });

  it.each(["abc", "-5", "+5", "1.234", "5.005", "1.", ".5", "1e3", "1,000", "£10", " 10", "10 ", "", "12345678901"])(
    "rejects %j",
    (text) => {
      expect(parseGbpToPence(text)).toBeNull();
    },
  );
});

describe("formatPence", () => {
  it.each([
    [8000, "80.00"],
    [0n, "0.00"],
    [5, "0.05"],
    [123_456_789_012n, "1234567890.12"],
    [-2000n, "-20.00"],
    [-5n, "-0.05"],
  ])("writes %s pence as %s", (pence, text) => {
    expect(formatPence(pence)).toBe(text);
  });
});
