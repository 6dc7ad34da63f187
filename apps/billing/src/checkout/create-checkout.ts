import { AppError, type CheckoutSession, type CreateCheckoutRequest } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { BillingDb } from "../db/client.ts";
import type { PaymentProviderConfig } from "../env.ts";
import { unknownAccount } from "../ledger/errors.ts";
import { createProviderCheckout } from "./provider-client.ts";

/**
 * `billing.create_checkout`: asks the payment provider for a checkout session for the account and
 * amount, records it (so that the payment webhook naming it is matched to them, checkout-payments.ts)
 * and answers the provider's page to send the agent to. Nothing is credited here: the balance
 * changes when the provider's signed payment webhook arrives. NOT_FOUND for an account billing
 * has not opened; SERVICE_UNAVAILABLE when no provider is configured (not retryable) or the
 * provider fails (retryable).
 */
export async function createCheckout(
  db: BillingDb,
  provider: PaymentProviderConfig | null,
  logger: Logger,
  request: CreateCheckoutRequest,
): Promise<CheckoutSession> {
  if (!provider) {
    throw new AppError("SERVICE_UNAVAILABLE", "Top-ups are not available: billing has no payment provider configured", {
      retryable: false,
    });
  }
  const account = await db.account.findUnique({ where: { id: request.account_id }, select: { id: true } });
  if (!account) throw unknownAccount(request.account_id);

  const amountPence = BigInt(request.amount_pence);
  const checkout = await createProviderCheckout(
    provider,
    { accountId: request.account_id, amountPence, successUrl: request.success_url, cancelUrl: request.cancel_url },
    logger,
  );
  await db.checkout.create({ data: { id: checkout.id, accountId: request.account_id, amountPence } });
  logger.info({ account_id: request.account_id, checkout_id: checkout.id, amount_pence: request.amount_pence }, "checkout created");
  return { checkout_id: checkout.id, checkout_url: checkout.url, amount_pence: request.amount_pence };
}
