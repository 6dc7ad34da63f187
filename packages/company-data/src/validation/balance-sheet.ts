import { capitalAndReserves, netAssets, type BalanceSheetAmounts, type BalanceSheetPence } from "../balance-sheet.ts";
import { formatPence, toPence, type Pence } from "../money.ts";
import type { FieldProblem } from "./field-problem.ts";

export type AmountConversion = { ok: true; pence: Pence } | { ok: false; problem: FieldProblem };

/** Converts one amount in pounds to pence, or explains at `path` why it cannot be. */
export function amountToPence(path: string, pounds: number): AmountConversion {
  try {
    return { ok: true, pence: toPence(pounds) };
  } catch {
    return {
      ok: false,
      problem: { path, message: "must be a finite amount with at most two decimal places" },
    };
  }
}

/**
 * Rules for a balance sheet in pence: share capital, cash and creditors are not negative, and
 * net assets (cash - creditors) equal capital and reserves (share capital + profit and loss
 * account). Problems are reported under `balance_sheet`.
 */
export function balanceSheetProblems(sheet: BalanceSheetPence): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const mustNotBeNegative = [
    ["share_capital", sheet.shareCapital],
    ["cash", sheet.cash],
    ["creditors", sheet.creditors],
  ] as const;
  for (const [field, pence] of mustNotBeNegative) {
    if (pence < 0) problems.push({ path: `balance_sheet.${field}`, message: "must not be negative" });
  }
  const assets = netAssets(sheet);
  const equity = capitalAndReserves(sheet);
  if (assets !== equity) {
    problems.push({
      path: "balance_sheet",
      message:
        `the balance sheet does not balance: net assets (cash - creditors) are ${formatPence(assets)} ` +
        `but capital and reserves (share_capital + profit_loss_account) are ${formatPence(equity)}`,
    });
  }
  return problems;
}

/** Validates a balance sheet given in pounds, as the public API carries it. */
export function validateBalanceSheet(sheet: BalanceSheetAmounts): FieldProblem[] {
  const shareCapital = amountToPence("balance_sheet.share_capital", sheet.share_capital);
  const cash = amountToPence("balance_sheet.cash", sheet.cash);
  const creditors = amountToPence("balance_sheet.creditors", sheet.creditors);
  const profitLossAccount = amountToPence("balance_sheet.profit_loss_account", sheet.profit_loss_account);
  if (!shareCapital.ok || !cash.ok || !creditors.ok || !profitLossAccount.ok) {
    return [shareCapital, cash, creditors, profitLossAccount].flatMap((c) => (c.ok ? [] : [c.problem]));
  }
  return balanceSheetProblems({
    shareCapital: shareCapital.pence,
    cash: cash.pence,
    creditors: creditors.pence,
    profitLossAccount: profitLossAccount.pence,
  });
}
