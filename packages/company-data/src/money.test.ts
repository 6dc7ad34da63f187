import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPence, fromPence, isMoneyAmount, toPence } from "./money.ts";

describe("toPence", () => {
  it.each([
    [0, 0],
    [-0, 0],
    [1, 100],
    [100, 10000],
    [20.07, 2007],
    [0.07, 7],
    [0.1, 10],
    [0.29, 29],
    [1.15, 115],
    [-5.5, -550],
    [-0.01, -1],
    [123456789.99, 12345678999],
    [1e13, 1e15],
  ])("toPence(%d) is %i", (pounds, pence) => {
    const result = toPence(pounds);
    expect(result).toBe(pence);
    expect(Object.is(result, -0)).toBe(false);
  });

  it.each([
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [0.001],
    [1.005],
    [0.1 + 0.2],
    [20.071],
    [-3.333],
    [1e17],
  ])("rejects %d", (pounds) => {
    expect(() => toPence(pounds)).toThrow(RangeError);
    expect(isMoneyAmount(pounds)).toBe(false);
  });

  it("rejects non-numbers at run time", () => {
    expect(() => toPence("1" as unknown as number)).toThrow(RangeError);
    expect(isMoneyAmount("1")).toBe(false);
    expect(isMoneyAmount(null)).toBe(false);
  });

  it("accepts every amount written with at most two decimals", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (pence) => {
        const written = formatPence(pence);
        return toPence(Number(written)) === pence && isMoneyAmount(Number(written));
      }),
    );
  });

  it("sums in pence exactly where floats do not", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(toPence(0.1) + toPence(0.2)).toBe(toPence(0.3));
  });
});

describe("fromPence", () => {
  it.each([
    [0, 0],
    [10050, 100.5],
    [-1, -0.01],
    [2007, 20.07],
  ])("fromPence(%i) is %d", (pence, pounds) => {
    expect(fromPence(pence)).toBe(pounds);
  });

  it("round-trips through toPence", () => {
    fc.assert(fc.property(fc.integer({ min: -1e13, max: 1e13 }), (p) => toPence(fromPence(p)) === p));
  });

  it("rejects fractional pence", () => {
    expect(() => fromPence(1.5)).toThrow(RangeError);
  });
});

describe("formatPence", () => {
  it.each([
    [0, "0.00"],
    [2000, "20.00"],
    [5, "0.05"],
    [-5, "-0.05"],
    [-550, "-5.50"],
    [10000, "100.00"],
    [123456789, "1234567.89"],
    [Number.MAX_SAFE_INTEGER, "90071992547409.91"],
  ])("formatPence(%i) is %s", (pence, text) => {
    expect(formatPence(pence)).toBe(text);
  });

  it.each([[Number.NaN], [1.5], [Number.POSITIVE_INFINITY], [2 ** 60]])("rejects %d", (p) => {
    expect(() => formatPence(p)).toThrow(RangeError);
  });
});
