import { type BillingDb, type BillingTx, inTransaction } from "../db/client.ts";
import type { TopUpSource } from "../generated/prisma/client.ts";
import { newId } from "../ids.ts";
import { formatPence, MAX_CREDIT_PENCE } from "../money/pence.ts";
import { conflictingReuse, unknownAccount } from "./errors.ts";
import { lockAccount } from "./lock.ts";

export interface TopUpInput {
  accountId: string;
  amountPence: bigint;
  /** The payment's id at the provider: one credit per payment id, ever. */
  paymentId: string;
  source: TopUpSource;
}

export interface AppliedTopUp {
  topUpId: string;
  paymentId: string;
  accountId: string;
  amountPence: bigint;
  /** True when this payment had been credited before (a retried webhook or command). */
  duplicate: boolean;
}

/**
 * Credits a payment to an account: a top_ups row (unique payment id) and its credit entry in one
 * transaction; the entry's trigger raises the account's balance. The one code path for the
 * provider's webhook, the admin CLI's top-up and the opening balance. Idempotent per payment id:
 * the same payment again changes nothing and answers `duplicate: true`; the same payment id with
 * another account or amount is refused (IDEMPOTENCY_KEY_CONFLICT), as is an unknown account
 * (NOT_FOUND), both without changing anything.
 */
export async function applyTopUp(db: BillingDb, input: TopUpInput): Promise<AppliedTopUp> {
  return inTransaction(db, (tx) => applyTopUpIn(tx, input));
}

/** applyTopUp inside a transaction the caller already runs (opening an account). */
export async function applyTopUpIn(tx: BillingTx, input: TopUpInput): Promise<AppliedTopUp> {
  const { accountId, amountPence, paymentId, source } = input;
  if (amountPence <= 0n || amountPence > MAX_CREDIT_PENCE) {
    throw new RangeError(`a top-up must be between 0.01 and ${formatPence(MAX_CREDIT_PENCE)} GBP`);
  }
  if (!(await lockAccount(tx, accountId))) throw unknownAccount(accountId);

  const topUpId = newId("top");
  const { count } = await tx.topUp.createMany({ data: [{ id: topUpId, paymentId, accountId, amountPence, source }], skipDuplicates: true });
  if (count === 0) {
    const earlier = await tx.topUp.findUniqueOrThrow({ where: { paymentId } });
    if (earlier.accountId !== accountId || earlier.amountPence !== amountPence) {
      throw conflictingReuse(`Payment ${paymentId} was already credited with a different account or amount`);
    }
    return { topUpId: earlier.id, paymentId, accountId, amountPence, duplicate: true };
  }
  await tx.ledgerEntry.create({ data: { accountId, kind: "credit", balanceDeltaPence: amountPence, heldDeltaPence: 0n, topUpId } });
  return { topUpId, paymentId, accountId, amountPence, duplicate: false };
}
