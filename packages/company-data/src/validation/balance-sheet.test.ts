import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { balanceSheetProblems, validateBalanceSheet } from "./balance-sheet.ts";

const sheet = (share_capital: number, cash: number, creditors: number, profit_loss_account: number) => ({
  share_capital,
  cash,
  creditors,
  profit_loss_account,
});

describe("validateBalanceSheet", () => {
  it.each([
    ["the default dormant sheet", sheet(100, 100, 0, 0)],
    ["nothing at all", sheet(0, 0, 0, 0)],
    ["one pound share", sheet(1, 1, 0, 0)],
    ["with creditors", sheet(100, 150, 50, 0)],
    ["with a loss", sheet(100, 80, 0, -20)],
    ["with a retained profit", sheet(100, 120.5, 0, 20.5)],
    ["pence that floats would get wrong", sheet(0.1, 0.3, 0, 0.2)],
    ["loss and creditors", sheet(1000, 975.01, 0.02, -25.01)],
  ])("accepts %s", (_, s) => {
    expect(validateBalanceSheet(s)).toEqual([]);
  });

  it("reports a sheet that does not balance, with both totals", () => {
    expect(validateBalanceSheet(sheet(100, 90, 0, 0))).toEqual([
      {
        path: "balance_sheet",
        message:
          "the balance sheet does not balance: net assets (cash - creditors) are 90.00 " +
          "but capital and reserves (share_capital + profit_loss_account) are 100.00",
      },
    ]);
  });

  it("is off by a penny: still does not balance", () => {
    expect(validateBalanceSheet(sheet(100, 100.01, 0, 0))).toHaveLength(1);
  });

  it.each([
    ["share_capital", sheet(-100, -100, 0, 0), ["balance_sheet.share_capital", "balance_sheet.cash"]],
    ["creditors", sheet(100, 50, -50, 0), ["balance_sheet.creditors"]],
    ["creditors that also unbalance", sheet(100, 150, -50, 0), ["balance_sheet.creditors", "balance_sheet"]],
  ])("reports negative %s", (_, s, paths) => {
    expect(validateBalanceSheet(s).map((p) => p.path)).toEqual(paths);
  });

  it.each([
    ["share_capital", sheet(100.001, 100, 0, 0)],
    ["cash", sheet(100, Number.NaN, 0, 0)],
    ["creditors", sheet(100, 100, Number.POSITIVE_INFINITY, 0)],
    ["profit_loss_account", sheet(100, 100, 0, 0.1 + 0.2)],
  ])("reports an unusable %s amount and nothing else", (field, s) => {
    expect(validateBalanceSheet(s)).toEqual([
      { path: `balance_sheet.${field}`, message: "must be a finite amount with at most two decimal places" },
    ]);
  });

  it("any sheet built to balance is accepted", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: -1e9, max: 1e9 }),
        (shareCapital, creditors, profitLossAccount) => {
          const cash = shareCapital + profitLossAccount + creditors;
          fc.pre(cash >= 0);
          return balanceSheetProblems({ shareCapital, cash, creditors, profitLossAccount }).length === 0;
        },
      ),
    );
  });
});
