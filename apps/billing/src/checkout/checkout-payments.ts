import type { BillingDb } from "../db/client.ts";
import { inTransaction } from "../db/client.ts";
import { conflictingReuse } from "../ledger/errors.ts";
import { type AppliedTopUp, applyTopUpIn, type TopUpInput } from "../ledger/top-ups.ts";

export interface CheckoutPayment extends AppliedTopUp {
  /** False when the webhook named a checkout billing has no record of (credited all the same). */
  checkoutMatched: boolean;
}

/**
 * Credits a payment of the provider's webhook that names the checkout it paid: the checkout
 * billing recorded (create-checkout.ts) must be for the same account and amount, and is marked
 * paid by this payment in the same transaction as the credit (account row locked first, as every
 * money move). A checkout is paid once: another payment id for a paid checkout, or a payment for
 * another account or amount, is refused (IDEMPOTENCY_KEY_CONFLICT) and nothing changes; the same
 * payment again is a duplicate. A checkout billing never recorded (the provider created it but the
 * record failed) does not stop a signed payment from being credited: `checkoutMatched: false`.
 */
export async function applyCheckoutPayment(
  db: BillingDb,
  input: Omit<TopUpInput, "source"> & { checkoutId: string },
): Promise<CheckoutPayment> {
  const { checkoutId, ...payment } = input;
  return inTransaction(db, async (tx) => {
    const checkout = await tx.checkout.findUnique({ where: { id: checkoutId } });
    if (checkout && (checkout.accountId !== payment.accountId || checkout.amountPence !== payment.amountPence)) {
      throw conflictingReuse(`Payment ${payment.paymentId} does not match checkout ${checkoutId} (another account or amount)`);
    }
    const topUp = await applyTopUpIn(tx, { ...payment, source: "webhook" });
    if (!checkout) return { ...topUp, checkoutMatched: false };
    const { count } = await tx.checkout.updateMany({
      where: { id: checkoutId, state: "open" },
      data: { state: "paid", paymentId: payment.paymentId, paidAt: new Date() },
    });
    if (count === 0) {
      const paid = await tx.checkout.findUniqueOrThrow({ where: { id: checkoutId } });
      if (paid.paymentId !== payment.paymentId) {
        throw conflictingReuse(`Checkout ${checkoutId} was already paid by another payment`);
      }
    }
    return { ...topUp, checkoutMatched: true };
  });
}
