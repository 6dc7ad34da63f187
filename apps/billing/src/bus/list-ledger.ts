import type { LedgerLine, LedgerPage, ListLedgerRequest } from "@dormant/contracts";
import type { BillingDb } from "../db/client.ts";
import type { TopUpSource } from "../generated/prisma/client.ts";
import { type LedgerPageEntry, ledgerPage } from "../ledger/ledger-page.ts";
import { penceToNumber } from "../money/pence.ts";

/** The top-up source as the account's owner reads it: the provider's webhook is a `payment`. */
const SOURCE_NAMES: Record<TopUpSource, string> = { webhook: "payment", opening: "opening", admin: "admin" };

function toLine(entry: LedgerPageEntry): LedgerLine {
  return {
    entry_id: entry.entryId.toString(),
    kind: entry.kind,
    balance_delta_pence: penceToNumber(entry.balanceDeltaPence),
    held_delta_pence: penceToNumber(entry.heldDeltaPence),
    filing_id: entry.filingId,
    top_up: entry.topUp ? { source: SOURCE_NAMES[entry.topUp.source], payment_id: entry.topUp.paymentId } : null,
    reversal: entry.reversal
      ? { kind: entry.reversal.kind, provider_id: entry.reversal.providerId, payment_id: entry.reversal.paymentId }
      : null,
    note: entry.note,
    created_at: entry.createdAt.toISOString(),
  };
}

/** `billing.list_ledger`: the account's ledger newest first, one page, with the total number of entries. */
export async function listLedgerRpc(db: BillingDb, request: ListLedgerRequest): Promise<LedgerPage> {
  const { entries, total } = await ledgerPage(db, { accountId: request.account_id, limit: request.limit, offset: request.offset });
  return {
    lines: entries.map(toLine),
    pagination: { total, limit: request.limit, offset: request.offset, has_more: request.offset + entries.length < total },
  };
}
