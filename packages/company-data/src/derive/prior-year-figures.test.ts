import { describe, expect, it } from "vitest";
import type { FilingHistoryItem } from "../schemas.ts";
import { annualAccounts, filingHistory } from "../test-support/registry-builders.ts";
import { derivePriorYearFigures } from "./prior-year-figures.ts";

const figures = (share_capital: number, cash: number, creditors = 0, profit_loss_account = 0) => ({
  share_capital,
  cash,
  creditors,
  profit_loss_account,
});

describe("derivePriorYearFigures", () => {
  it("gives null without a history, with an empty one, and for accounts without figures", () => {
    expect(derivePriorYearFigures(undefined)).toBeNull();
    expect(derivePriorYearFigures(filingHistory())).toBeNull();
    expect(derivePriorYearFigures(filingHistory(annualAccounts("2024-03-31")))).toBeNull();
  });

  it("converts the latest accounts' figures to pence", () => {
    const history = filingHistory(annualAccounts("2024-03-31", figures(1, 0.5, 0.25, -0.25)));
    expect(derivePriorYearFigures(history)).toEqual({
      madeUpTo: "2024-03-31",
      shareCapital: 100,
      cash: 50,
      creditors: 25,
      profitLossAccount: -25,
    });
  });

  it.each([
    ["the latest of all without a period start", undefined, "2024-03-31", 300],
    ["the latest before the period start", "2024-04-01", "2024-03-31", 300],
    ["an earlier year when filing an earlier period", "2023-04-01", "2023-03-31", 200],
    ["the earliest before a period that starts on a made-up date", "2023-03-31", "2022-03-31", 100],
  ])("chooses %s", (_, periodStart, madeUpTo, shareCapital) => {
    // deliberately out of order: the registry's order must not matter
    const history = filingHistory(
      annualAccounts("2023-03-31", figures(2, 2)),
      annualAccounts("2024-03-31", figures(3, 3)),
      annualAccounts("2022-03-31", figures(1, 1)),
    );
    const options = periodStart === undefined ? {} : { periodStart };
    expect(derivePriorYearFigures(history, options)).toMatchObject({ madeUpTo, shareCapital });
  });

  it("gives null when the immediately preceding accounts have no figures, even if older ones do", () => {
    const history = filingHistory(annualAccounts("2024-03-31"), annualAccounts("2023-03-31", figures(100, 100)));
    expect(derivePriorYearFigures(history, { periodStart: "2024-04-01" })).toBeNull();
  });

  it("gives null when nothing was made up before the period start", () => {
    const history = filingHistory(annualAccounts("2024-03-31", figures(100, 100)));
    expect(derivePriorYearFigures(history, { periodStart: "2023-04-01" })).toBeNull();
  });

  it("ignores non-AA items even when they carry figures", () => {
    const changeOfDate: FilingHistoryItem = {
      category: "accounts",
      type: "AA01",
      date: "2024-05-01",
      description: "change-account-reference-date-company-previous-extended",
      description_values: { made_up_date: "2024-03-31" },
      accounts_figures: figures(5, 5),
    };
    expect(derivePriorYearFigures(filingHistory(changeOfDate))).toBeNull();
  });
});
