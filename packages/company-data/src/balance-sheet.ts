/**
 * A dormant company's balance sheet, the four figures the public API exchanges.
 *
 * The equation it must satisfy (checked by validateBalanceSheet):
 *   net assets            = cash - creditors
 *   capital and reserves  = share capital + profit and loss account
 *   net assets            = capital and reserves
 * Creditors are amounts owed (shown positive); the profit and loss account is the retained
 * result and may be negative.
 */
import { fromPence, type Pence } from "./money.ts";

/** The API's shape: amounts in pounds (numbers with at most two decimals). */
export interface BalanceSheetAmounts {
  share_capital: number;
  cash: number;
  creditors: number;
  profit_loss_account: number;
}

/** The same figures in integer pence, for arithmetic and for document builders. */
export interface BalanceSheetPence {
  shareCapital: Pence;
  cash: Pence;
  creditors: Pence;
  profitLossAccount: Pence;
}

export function netAssets(sheet: BalanceSheetPence): Pence {
  return sheet.cash - sheet.creditors;
}

export function capitalAndReserves(sheet: BalanceSheetPence): Pence {
  return sheet.shareCapital + sheet.profitLossAccount;
}

export function balanceSheetAmounts(sheet: BalanceSheetPence): BalanceSheetAmounts {
  return {
    share_capital: fromPence(sheet.shareCapital),
    cash: fromPence(sheet.cash),
    creditors: fromPence(sheet.creditors),
    profit_loss_account: fromPence(sheet.profitLossAccount),
  };
}
