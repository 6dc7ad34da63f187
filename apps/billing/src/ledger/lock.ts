import type { BillingTx } from "../db/client.ts";

export interface LockedAccount {
  balancePence: bigint;
  heldPence: bigint;
}

/**
 * Locks the account row for the rest of the transaction and reads its running totals, or null
 * if billing has no such account. Every transaction that moves money of an account takes this
 * lock first (then the hold row, then writes entries): the top-ups here, and the SQL functions of
 * the hold, release and outcome paths (migration 20261122080000) the same way, so concurrent
 * money moves on one account queue up on it and see each other's effects, and lock order is the
 * same everywhere (no deadlocks).
 */
export async function lockAccount(tx: BillingTx, accountId: string): Promise<LockedAccount | null> {
  const rows = await tx.$queryRaw<Array<{ balance_pence: bigint; held_pence: bigint }>>`
    SELECT "balance_pence", "held_pence" FROM "accounts" WHERE "id" = ${accountId} FOR UPDATE`;
  const row = rows[0];
  return row ? { balancePence: BigInt(row.balance_pence), heldPence: BigInt(row.held_pence) } : null;
}
