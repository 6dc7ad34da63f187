import type { BalanceSheetPence } from "../balance-sheet.ts";
import { deriveDormantCash } from "./dormant-cash.ts";
import type { PriorYearFigures } from "./prior-year-figures.ts";
import { deriveShareCapital } from "./share-capital.ts";

export interface DormantBalanceSheetInput {
  priorYear: PriorYearFigures | null;
  entityType: string;
  /** Figures the caller gave (overrides, in pence); the rest are derived around them. */
  given?: Partial<BalanceSheetPence>;
}

/**
 * The balance sheet for the period being filed. A dormant company's figures do not move, so
 * each figure not given is: share capital per deriveShareCapital; creditors and profit and
 * loss account from the prior year, else 0; cash per deriveDormantCash from the other three,
 * so that the sheet balances unless the caller's own figures make it not balance.
 */
export function deriveDormantBalanceSheet(input: DormantBalanceSheetInput): BalanceSheetPence {
  const { priorYear, entityType, given = {} } = input;
  const shareCapital = given.shareCapital ?? deriveShareCapital(priorYear, entityType);
  const creditors = given.creditors ?? priorYear?.creditors ?? 0;
  const profitLossAccount = given.profitLossAccount ?? priorYear?.profitLossAccount ?? 0;
  const cash = given.cash ?? deriveDormantCash({ shareCapital, creditors, profitLossAccount });
  return { shareCapital, cash, creditors, profitLossAccount };
}
