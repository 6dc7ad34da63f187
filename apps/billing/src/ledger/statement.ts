import type { BillingDb } from "../db/client.ts";
import type { LedgerEntryKind, ReversalKind, TopUpSource } from "../generated/prisma/client.ts";

export interface StatementLine {
  entryId: bigint;
  kind: LedgerEntryKind;
  balanceDeltaPence: bigint;
  heldDeltaPence: bigint;
  /** Running totals after this entry. */
  balanceAfterPence: bigint;
  heldAfterPence: bigint;
  /** Why: the filing (holds, captures, releases), the payment (credits) or the refund or dispute of a payment (reversals). */
  filingId: string | null;
  topUpId: string | null;
  /** The payment credited, or the payment a reversal took money back from. */
  paymentId: string | null;
  reversal: { kind: ReversalKind; providerId: string } | null;
  source: TopUpSource | null;
  note: string | null;
  createdAt: Date;
}

/**
 * The latest `limit` entries of an account, oldest first, each with the running balance and
 * held amount after it (computed from every earlier entry, not from the account's totals).
 */
export async function accountStatement(db: BillingDb, accountId: string, limit = 1000): Promise<StatementLine[]> {
  const newest = await db.ledgerEntry.findMany({
    where: { accountId },
    orderBy: { id: "desc" },
    take: limit,
    include: {
      topUp: { select: { paymentId: true, source: true } },
      reversal: { select: { kind: true, providerId: true, topUp: { select: { paymentId: true } } } },
    },
  });
  const entries = newest.reverse();
  const first = entries[0];
  if (!first) return [];
  const before = await db.ledgerEntry.aggregate({
    where: { accountId, id: { lt: first.id } },
    _sum: { balanceDeltaPence: true, heldDeltaPence: true },
  });
  let balance = before._sum.balanceDeltaPence ?? 0n;
  let held = before._sum.heldDeltaPence ?? 0n;
  return entries.map((entry) => {
    balance += entry.balanceDeltaPence;
    held += entry.heldDeltaPence;
    return {
      entryId: entry.id,
      kind: entry.kind,
      balanceDeltaPence: entry.balanceDeltaPence,
      heldDeltaPence: entry.heldDeltaPence,
      balanceAfterPence: balance,
      heldAfterPence: held,
      filingId: entry.filingId,
      topUpId: entry.topUpId,
      paymentId: entry.topUp?.paymentId ?? entry.reversal?.topUp.paymentId ?? null,
      reversal: entry.reversal ? { kind: entry.reversal.kind, providerId: entry.reversal.providerId } : null,
      source: entry.topUp?.source ?? null,
      note: entry.note,
      createdAt: entry.createdAt,
    };
  });
}
