import type { Pence } from "../money.ts";

export interface DormantCashInput {
  shareCapital: Pence;
  creditors: Pence;
  profitLossAccount: Pence;
}

/**
 * Cash at bank for a dormant balance sheet: the figure that makes it balance, i.e.
 * share capital + profit and loss account + creditors. A dormant company has no transactions,
 * so with no creditors and no retained result this is cash equal to share capital (the shares
 * were paid for and the money is held), and with last year's figures it reproduces last
 * year's cash.
 *
 * Decision: the asset is always presented as cash. A company whose shares are still unpaid
 * would show "called up share capital not paid" instead; the public API has no field for that,
 * so such a company has to give its own `balance_sheet` figures.
 */
export function deriveDormantCash(input: DormantCashInput): Pence {
  return input.shareCapital + input.profitLossAccount + input.creditors;
}
