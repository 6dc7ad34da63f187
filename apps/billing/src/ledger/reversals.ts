import { type BillingDb, inTransaction } from "../db/client.ts";
import type { ReversalKind } from "../generated/prisma/client.ts";
import { newId } from "../ids.ts";
import { formatPence } from "../money/pence.ts";
import { conflictingReuse, unknownAccount } from "./errors.ts";
import { lockAccount } from "./lock.ts";

export interface ReversalInput {
  kind: ReversalKind;
  /** The provider's refund id or dispute id: one debit per kind and id, ever. */
  providerId: string;
  /** The payment the money is taken back from (a top-up billing credited). */
  paymentId: string;
  accountId: string;
  amountPence: bigint;
}

export interface AppliedReversal {
  reversalId: string;
  topUpId: string;
  amountPence: bigint;
  /** True when this refund or dispute had been applied before (a redelivered notification). */
  duplicate: boolean;
  /** The account's available amount (balance - held) after it: negative when the debit was not covered. */
  availablePence: bigint;
}

/** The payment is not (yet) credited by billing: the provider's retry is right (the payment's own notification may come later). */
export class UnknownPaymentError extends Error {
  constructor(readonly paymentId: string) {
    super(`Payment "${paymentId}" is not credited in billing (yet)`);
    this.name = "UnknownPaymentError";
  }
}

/**
 * Takes back money the payment provider took back from a payment (a refund or a dispute): a
 * payment_reversals row and its `reversal` entry (balance -X, held 0) in one transaction, the
 * account row locked first (as every money move). The account's available amount may go below
 * zero: the money has left the platform whatever the balance; no hold is placed until a top-up
 * covers it. Idempotent per kind and provider id: the same refund or dispute again changes nothing
 * and answers `duplicate: true`. Refused without changing anything: an unknown account
 * (NOT_FOUND), a payment billing never credited (UnknownPaymentError), a payment credited to
 * another account, the same id with another payment or amount, or reversals adding up to more than
 * the payment (IDEMPOTENCY_KEY_CONFLICT).
 */
export async function applyPaymentReversal(db: BillingDb, input: ReversalInput): Promise<AppliedReversal> {
  const { kind, providerId, paymentId, accountId, amountPence } = input;
  if (amountPence <= 0n) throw new RangeError("a reversal must be for a positive amount");
  return inTransaction(db, async (tx) => {
    const account = await lockAccount(tx, accountId);
    if (!account) throw unknownAccount(accountId);
    const available = (balance: bigint, held: bigint) => balance - held;

    const topUp = await tx.topUp.findUnique({ where: { paymentId } });
    if (!topUp) throw new UnknownPaymentError(paymentId);
    if (topUp.accountId !== accountId) throw conflictingReuse(`Payment ${paymentId} was credited to another account`);

    const earlier = await tx.paymentReversal.findUnique({ where: { kind_providerId: { kind, providerId } } });
    if (earlier) {
      if (earlier.topUpId !== topUp.id || earlier.amountPence !== amountPence) {
        throw conflictingReuse(`The ${kind} ${providerId} was already applied with another payment or amount`);
      }
      return {
        reversalId: earlier.id,
        topUpId: topUp.id,
        amountPence,
        duplicate: true,
        availablePence: available(account.balancePence, account.heldPence),
      };
    }

    const reversed = await tx.paymentReversal.aggregate({ where: { topUpId: topUp.id }, _sum: { amountPence: true } });
    const already = reversed._sum.amountPence ?? 0n;
    if (already + amountPence > topUp.amountPence) {
      throw conflictingReuse(
        `The ${kind} ${providerId} of ${formatPence(amountPence)} GBP would take back more than payment ${paymentId} ` +
          `(${formatPence(topUp.amountPence)} GBP, ${formatPence(already)} GBP already taken back)`,
      );
    }

    const reversalId = newId("rev");
    await tx.paymentReversal.create({ data: { id: reversalId, kind, providerId, topUpId: topUp.id, accountId, amountPence } });
    await tx.ledgerEntry.create({
      data: { accountId, kind: "reversal", balanceDeltaPence: -amountPence, heldDeltaPence: 0n, reversalId, note: `${kind} ${providerId}` },
    });
    return {
      reversalId,
      topUpId: topUp.id,
      amountPence,
      duplicate: false,
      availablePence: available(account.balancePence - amountPence, account.heldPence),
    };
  });
}
