import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { balanceSheetProblems } from "../validation/balance-sheet.ts";
import { deriveDormantBalanceSheet } from "./dormant-balance-sheet.ts";
import { deriveDormantCash } from "./dormant-cash.ts";
import type { PriorYearFigures } from "./prior-year-figures.ts";
import { DEFAULT_SHARE_CAPITAL_PENCE, deriveShareCapital } from "./share-capital.ts";

const prior = (change: Partial<PriorYearFigures> = {}): PriorYearFigures => ({
  madeUpTo: "2024-03-31",
  shareCapital: 100,
  cash: 100,
  creditors: 0,
  profitLossAccount: 0,
  ...change,
});

describe("deriveShareCapital", () => {
  it.each([
    ["the default 100.00 when nothing is known", undefined, undefined, 10_000],
    ["the default with a null prior year", null, "ltd", 10_000],
    ["the prior accounts' figure", prior({ shareCapital: 100 }), "ltd", 100],
    ["a prior figure of zero", prior({ shareCapital: 0 }), "ltd", 0],
    ["the prior figure even for a guarantee company", prior({ shareCapital: 500 }), "private-limited-guarant-nsc", 500],
    ["zero for a company limited by guarantee", null, "private-limited-guarant-nsc", 0],
    ["zero for an unlimited company without share capital", null, "private-unlimited-nsc", 0],
    ["the default for a plc", null, "plc", 10_000],
  ])("gives %s", (_, priorYear, entityType, pence) => {
    expect(deriveShareCapital(priorYear, entityType)).toBe(pence);
  });

  it("defaults to 100.00", () => {
    expect(DEFAULT_SHARE_CAPITAL_PENCE).toBe(10_000);
  });
});

describe("deriveDormantCash", () => {
  it.each([
    [10_000, 0, 0, 10_000],
    [100, 0, 0, 100],
    [0, 0, 0, 0],
    [10_000, 5_000, 0, 15_000],
    [10_000, 0, -2_000, 8_000],
    [10_000, 1_000, 2_000, 13_000],
  ])("share capital %i, creditors %i, profit and loss %i -> cash %i", (shareCapital, creditors, profitLossAccount, cash) => {
    expect(deriveDormantCash({ shareCapital, creditors, profitLossAccount })).toBe(cash);
  });
});

describe("deriveDormantBalanceSheet", () => {
  it.each([
    [
      "cash equal to the default share capital when nothing is known",
      { priorYear: null, entityType: "ltd" },
      { shareCapital: 10_000, cash: 10_000, creditors: 0, profitLossAccount: 0 },
    ],
    [
      "an empty sheet for a guarantee company",
      { priorYear: null, entityType: "private-limited-guarant-nsc" },
      { shareCapital: 0, cash: 0, creditors: 0, profitLossAccount: 0 },
    ],
    [
      "last year's figures for a dormant company",
      { priorYear: prior({ shareCapital: 100, cash: 150, creditors: 50 }), entityType: "ltd" },
      { shareCapital: 100, cash: 150, creditors: 50, profitLossAccount: 0 },
    ],
    [
      "last year's loss carried forward",
      { priorYear: prior({ shareCapital: 10_000, cash: 9_000, profitLossAccount: -1_000 }), entityType: "ltd" },
      { shareCapital: 10_000, cash: 9_000, creditors: 0, profitLossAccount: -1_000 },
    ],
    [
      "cash rebalanced around a given share capital",
      { priorYear: null, entityType: "ltd", given: { shareCapital: 100 } },
      { shareCapital: 100, cash: 100, creditors: 0, profitLossAccount: 0 },
    ],
    [
      "cash rebalanced around given creditors",
      { priorYear: prior(), entityType: "ltd", given: { creditors: 2_500 } },
      { shareCapital: 100, cash: 2_600, creditors: 2_500, profitLossAccount: 0 },
    ],
    [
      "a given cash kept as given, even if it does not balance",
      { priorYear: null, entityType: "ltd", given: { cash: 1 } },
      { shareCapital: 10_000, cash: 1, creditors: 0, profitLossAccount: 0 },
    ],
  ])("gives %s", (_, input, expected) => {
    expect(deriveDormantBalanceSheet(input)).toEqual(expected);
  });

  it("balances whenever cash is not given", () => {
    const pence = fc.integer({ min: 0, max: 1e9 });
    fc.assert(
      fc.property(
        fc.option(pence, { nil: undefined }),
        fc.option(pence, { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 1e9 }), { nil: undefined }),
        (shareCapital, creditors, profitLossAccount) => {
          const given = {
            ...(shareCapital === undefined ? {} : { shareCapital }),
            ...(creditors === undefined ? {} : { creditors }),
            ...(profitLossAccount === undefined ? {} : { profitLossAccount }),
          };
          const sheet = deriveDormantBalanceSheet({ priorYear: null, entityType: "ltd", given });
          return balanceSheetProblems(sheet).length === 0;
        },
      ),
    );
  });
});
