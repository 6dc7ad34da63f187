import { z } from "zod";
import { AccountId } from "../ledger/accounts.ts";
import { MAX_CREDIT_PENCE, parseGbpToPence } from "../money/pence.ts";

/**
 * The payment provider's notification (README "Top-ups and the payment webhook"):
 *   { "payment_id": "pay_3QX...", "account_id": "acc_...", "amount": "50.00",
 *     "currency": "GBP", "status": "succeeded", "checkout_id": "cs_..." }
 * `amount` is a decimal string of pounds (never a binary float); only `succeeded` payments are
 * credited, other statuses are acknowledged and change nothing. `checkout_id` (optional) names the
 * checkout session the payment paid (billing.create_checkout): it must then be for the same
 * account and amount (checkout/checkout-payments.ts). Unknown fields are ignored.
 */
export const PaymentNotification = z.object({
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
});
export type PaymentNotification = z.output<typeof PaymentNotification>;
