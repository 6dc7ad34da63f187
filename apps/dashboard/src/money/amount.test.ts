import { describe, expect, it } from "vitest";
import { parseTopUpAmount } from "./amount.ts";

describe("parseTopUpAmount", () => {
  it.each([
    ["5", 500],
    ["5.00", 500],
    ["5.5", 550],
    [" 12.34 ", 1234],
    ["10000", 1_000_000],
    ["10000.00", 1_000_000],
    ["0.29e2", null],
  ])("%j", (text, pence) => {
    const parsed = parseTopUpAmount(text);
    if (pence === null) expect(parsed.ok).toBe(false);
    else expect(parsed).toEqual({ ok: true, pence });
  });

  it.each(["", "   ", "4.99", "10000.01", "1e3", "12.345", "-5", "£5", "1,000", "5.", ".5", "Infinity", "NaN", "0x10"])(
    "refuses %j",
    (text) => {
      const parsed = parseTopUpAmount(text);
      expect(parsed.ok).toBe(false);
    },
  );

  it("says which rule failed", () => {
    expect(parseTopUpAmount("")).toEqual({ ok: false, error: expect.stringContaining("Enter an amount in pounds") });
    expect(parseTopUpAmount("12.345")).toEqual({ ok: false, error: expect.stringContaining("at most 2 decimal places") });
    expect(parseTopUpAmount("4.99")).toEqual({ ok: false, error: "Enter an amount from £5.00 to £10,000.00." });
  });
});
