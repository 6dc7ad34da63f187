import { describe, expect, it } from "vitest";
import { parseGbpToPence } from "./money.ts";

describe("parseGbpToPence", () => {
  it.each([
    ["0", 0n],
    ["100", 10_000n],
    ["100.5", 10_050n],
    ["100.50", 10_050n],
    ["0.01", 1n],
    ["0.29", 29n], // 0.29 * 100 is 28.999... in binary floating point
    ["1.10", 110n],
    ["9999999999.99", 999_999_999_999n],
  ])("reads %s as %s pence", (text, pence) => {
    expect(parseGbpToPence(text)).toBe(pence);
  });

  it.each(["abc", "-5", "+5", "1.234", "1.", ".5", "1e3", "1,000", "£10", " 10", "10 ", "", "12345678901"])("rejects %j", (text) => {
    expect(parseGbpToPence(text)).toBeNull();
  });
});
