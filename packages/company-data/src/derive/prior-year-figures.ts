import type { BalanceSheetPence } from "../balance-sheet.ts";
import { compareDates, type IsoDate } from "../calendar-date.ts";
import { toPence } from "../money.ts";
import type { FilingHistory } from "../schemas.ts";
import { annualAccountsFiled } from "./accounts-filings.ts";

/** The balance sheet of the previous filed accounts, in pence, with the date it is made up to. */
export interface PriorYearFigures extends BalanceSheetPence {
  madeUpTo: IsoDate;
}

export interface PriorYearOptions {
  /** The start of the period being filed: only accounts made up to an earlier date count. */
  periodStart?: IsoDate;
}

/**
 * The comparatives for the period being filed: the figures of the latest annual accounts (AA)
 * made up to a date before `periodStart` (the latest of all without it). Null when there are
 * no such accounts or when that filing carries no figures. Older filings are never used
 * instead: comparatives must be the immediately preceding accounts.
 *
 * The real registry gives no figures (they are inside the filed iXBRL document), so against it
 * this is always null; our simulator provides `accounts_figures` (see schemas.ts).
 */
export function derivePriorYearFigures(filingHistory: FilingHistory | undefined, options: PriorYearOptions = {}): PriorYearFigures | null {
  const { periodStart } = options;
  const previous = annualAccountsFiled(filingHistory).find(
    (filed) => periodStart === undefined || compareDates(filed.madeUpTo, periodStart) < 0,
  );
  if (previous?.figures === undefined) return null;
  const { figures } = previous;
  return {
    madeUpTo: previous.madeUpTo,
    shareCapital: toPence(figures.share_capital),
    cash: toPence(figures.cash),
    creditors: toPence(figures.creditors),
    profitLossAccount: toPence(figures.profit_loss_account),
  };
}
