import type { BillingDb } from "../db/client.ts";

export interface AccountBalance {
  accountId: string;
  /** Whether billing knows the account (an unknown account has nothing: all zero). */
  known: boolean;
  balancePence: bigint;
  heldPence: bigint;
  /** Balance minus open holds: what new filings can be held against. */
  availablePence: bigint;
}

/** The account's running totals (kept equal to the sums of its ledger entries by the database). */
export async function getBalance(db: BillingDb, accountId: string): Promise<AccountBalance> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { balancePence: true, heldPence: true } });
  if (!account) return { accountId, known: false, balancePence: 0n, heldPence: 0n, availablePence: 0n };
  return {
    accountId,
    known: true,
    balancePence: account.balancePence,
    heldPence: account.heldPence,
    availablePence: account.balancePence - account.heldPence,
  };
}
