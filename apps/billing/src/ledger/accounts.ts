import { z } from "zod";
import { inTransaction, type BillingDb } from "../db/client.ts";
import { MAX_CREDIT_PENCE } from "../money/pence.ts";
import { conflictingReuse } from "./errors.ts";
import { applyTopUpIn } from "./top-ups.ts";

/** Account ids as the gateway issues them (`acc_` + base62), and whatever tests use alike. */
export const AccountId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, '_' or '-'");

export const OpenAccountInput = z.object({
  accountId: AccountId,
  openingBalancePence: z.bigint().min(0n, "must not be negative").max(MAX_CREDIT_PENCE, "is too large"),
  name: z.string().trim().min(1).max(200).optional(),
});
export type OpenAccountInput = z.input<typeof OpenAccountInput>;

export interface OpenedAccount {
  accountId: string;
  /** False when the account already existed (nothing was changed). */
  created: boolean;
  /** The opening credit's top-up, when the opening balance was above zero. */
  openingTopUpId: string | null;
}

/** The payment id of an account's opening credit: one per account, whatever is retried. */
export function openingPaymentId(accountId: string): string {
  return `opening_${accountId}`;
}

/**
 * Opens the billing side of an account the gateway created (same id), recording the opening
 * balance as a ledger credit (source `opening`), in one transaction. Idempotent: opening an
 * existing account again with the same opening balance changes nothing; with a different one it
 * is refused (IDEMPOTENCY_KEY_CONFLICT), because money already recorded is never rewritten.
 */
export async function openAccount(db: BillingDb, input: OpenAccountInput): Promise<OpenedAccount> {
  const { accountId, openingBalancePence, name } = OpenAccountInput.parse(input);
  return inTransaction(db, async (tx) => {
    const { count } = await tx.account.createMany({ data: [{ id: accountId, name: name ?? null }], skipDuplicates: true });
    const paymentId = openingPaymentId(accountId);
    if (count === 0) {
      const opening = await tx.topUp.findUnique({ where: { paymentId } });
      if ((opening?.amountPence ?? 0n) !== openingBalancePence) {
        throw conflictingReuse(`Account ${accountId} is already open with a different opening balance`);
      }
      return { accountId, created: false, openingTopUpId: opening?.id ?? null };
    }
    if (openingBalancePence === 0n) return { accountId, created: true, openingTopUpId: null };
    const credit = await applyTopUpIn(tx, { accountId, amountPence: openingBalancePence, paymentId, source: "opening" });
    return { accountId, created: true, openingTopUpId: credit.topUpId };
  });
}
