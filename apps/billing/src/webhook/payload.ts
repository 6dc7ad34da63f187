import { z } from "zod";
import { AccountId } from "../ledger/accounts.ts";
import { MAX_CREDIT_PENCE, parseGbpToPence } from "../money/pence.ts";

const ProviderId = z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, "must be 1-100 characters of letters, digits, '_', '.', ':' or '-'");

/**
 * The payment provider's notification (README "Top-ups and the payment webhook"):
 *   { "payment_id": "pay_3QX...", "account_id": "acc_...", "amount": "50.00",
 *     "currency": "GBP", "status": "succeeded", "checkout_id": "cs_..." }
 * `amount` is a decimal string of pounds (never a binary float). `succeeded` payments are
 * credited. `refunded` (with `refund_id`) and `disputed` (with `dispute_id`) take money back from
 * the payment `payment_id` names: `amount` is then the refunded or disputed amount (README
 * "Refunds and disputes"). Other statuses are acknowledged and change nothing. `checkout_id`
 * (optional) names the checkout session the payment paid (billing.create_checkout): it must then
 * be for the same account and amount (checkout/checkout-payments.ts). Unknown fields are ignored.
 */
export const PaymentNotification = z
  .object({
    payment_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, "must be 1-100 characters of letters, digits, '_', '.', ':' or '-'"),
    account_id: AccountId,
    amount: z.string().transform((text, context) => {
      const pence = parseGbpToPence(text);
      if (pence === null || pence <= 0n || pence > MAX_CREDIT_PENCE) {
        context.addIssue({ code: "custom", message: 'must be a positive GBP amount with at most two decimals, e.g. "50.00"' });
        return z.NEVER;
      }
      return pence;
    }),
    currency: z.literal("GBP", { error: 'must be "GBP"' }),
    status: z.string().min(1).max(40),
    checkout_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/, "must be 1-100 letters, digits, '_' or '-'")
      .optional(),
    /** The provider's refund id (status `refunded`): one debit per refund. */
    refund_id: ProviderId.optional(),
    /** The provider's dispute id (status `disputed`): one debit per dispute. */
    dispute_id: ProviderId.optional(),
  })
  .superRefine((notification, context) => {
    if (notification.status === "refunded" && !notification.refund_id)
      context.addIssue({ code: "custom", path: ["refund_id"], message: "is required for a refunded payment" });
    if (notification.status === "disputed" && !notification.dispute_id)
      context.addIssue({ code: "custom", path: ["dispute_id"], message: "is required for a disputed payment" });
  });
export type PaymentNotification = z.output<typeof PaymentNotification>;
