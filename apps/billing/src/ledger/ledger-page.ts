import type { BillingDb } from "../db/client.ts";
import type { LedgerEntryKind, ReversalKind, TopUpSource } from "../generated/prisma/client.ts";

export interface LedgerPageEntry {
  entryId: bigint;
  kind: LedgerEntryKind;
  balanceDeltaPence: bigint;
  heldDeltaPence: bigint;
  filingId: string | null;
  /** For credits: the top-up's source and payment id. */
  topUp: { source: TopUpSource; paymentId: string } | null;
  /** For reversals: refund or dispute, the provider's id and the payment taken back from. */
  reversal: { kind: ReversalKind; providerId: string; paymentId: string } | null;
  note: string | null;
  createdAt: Date;
}

/**
 * One page of an account's ledger entries, newest first (entry ids increase in the order entries
 * were written), and how many entries the account has. Both read in one transaction; an account
 * billing does not know has none. Uses the (account_id, id) index.
 */
export async function ledgerPage(
  db: BillingDb,
  input: { accountId: string; limit: number; offset: number },
): Promise<{ entries: LedgerPageEntry[]; total: number }> {
  const where = { accountId: input.accountId };
  const [total, rows] = await db.$transaction([
    db.ledgerEntry.count({ where }),
    db.ledgerEntry.findMany({
      where,
      orderBy: { id: "desc" },
      take: input.limit,
      skip: input.offset,
      include: {
        topUp: { select: { paymentId: true, source: true } },
        reversal: { select: { kind: true, providerId: true, topUp: { select: { paymentId: true } } } },
      },
    }),
  ]);
  return {
    total,
    entries: rows.map((row) => ({
      entryId: row.id,
      kind: row.kind,
      balanceDeltaPence: row.balanceDeltaPence,
      heldDeltaPence: row.heldDeltaPence,
      filingId: row.filingId,
      topUp: row.topUp ? { source: row.topUp.source, paymentId: row.topUp.paymentId } : null,
      reversal: row.reversal
        ? { kind: row.reversal.kind, providerId: row.reversal.providerId, paymentId: row.reversal.topUp.paymentId }
        : null,
      note: row.note,
      createdAt: row.createdAt,
    })),
  };
}
