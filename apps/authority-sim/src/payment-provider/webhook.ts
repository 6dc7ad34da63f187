// LOCAL STAND-IN OF THE PAYMENT PROVIDER (not an authority; never in production): the payment
// webhook, sent to billing's POST /webhooks/payments exactly as the real provider sends it.
import { createHmac } from "node:crypto";
import type { Logger } from "@dormant/service-kit";
import type { PaymentProviderStandInConfig } from "./config.ts";
import type { CheckoutSession } from "./sessions.ts";

/** The header billing verifies (apps/billing/src/webhook/signature.ts). */
export const SIGNATURE_HEADER = "x-payment-signature";

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`: the provider's scheme (Stripe's). */
export function signWebhook(secret: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex");
  return `t=${timestampSeconds},v1=${mac}`;
}

export type WebhookResult = { ok: true; status: number } | { ok: false; status: number | null; reason: string };

/**
 * Sends the succeeded payment of a session (its one payment id) to billing, signed with the shared
 * secret; waits at most `webhookTimeoutMs`. The secret is never logged.
 */
export function sendPaymentWebhook(
  config: PaymentProviderStandInConfig,
  session: CheckoutSession,
  paymentId: string,
  logger: Logger | undefined,
): Promise<WebhookResult> {
  const body = {
    payment_id: paymentId,
    account_id: session.account_id,
    amount: session.amount,
    currency: session.currency,
    status: "succeeded",
    checkout_id: session.id,
  };
  return sendSigned(config, body, { checkout_id: session.id, payment_id: paymentId }, logger);
}

/**
 * Tells billing a session's payment was refunded or disputed (`amount`, decimal pounds), with the
 * refund's or dispute's id, signed as every notification; waits at most `webhookTimeoutMs`.
 */
export function sendReversalWebhook(
  config: PaymentProviderStandInConfig,
  session: CheckoutSession,
  reversal: { kind: "refund" | "dispute"; id: string; amount: string },
  logger: Logger | undefined,
): Promise<WebhookResult> {
  const body = {
    payment_id: session.payment_id,
    account_id: session.account_id,
    amount: reversal.amount,
    currency: session.currency,
    status: reversal.kind === "refund" ? "refunded" : "disputed",
    [`${reversal.kind}_id`]: reversal.id,
    checkout_id: session.id,
  };
  return sendSigned(
    config,
    body,
    { checkout_id: session.id, payment_id: session.payment_id, [`${reversal.kind}_id`]: reversal.id },
    logger,
  );
}

async function sendSigned(
  config: PaymentProviderStandInConfig,
  notification: Record<string, unknown>,
  logFields: Record<string, unknown>,
  logger: Logger | undefined,
): Promise<WebhookResult> {
  const body = JSON.stringify(notification);
  const signature = signWebhook(config.webhookSecret, Math.floor(Date.now() / 1000), body);
  try {
    const response = await fetch(config.webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
      body,
      signal: AbortSignal.timeout(config.webhookTimeoutMs),
    });
    await response.body?.cancel();
    const fields = { ...logFields, notification: notification.status, status: response.status };
    if (response.ok) {
      logger?.info(fields, "payment provider stand-in: payment webhook delivered");
      return { ok: true, status: response.status };
    }
    logger?.warn(fields, "payment provider stand-in: billing refused the payment webhook");
    return { ok: false, status: response.status, reason: `billing answered HTTP ${response.status}` };
  } catch (error) {
    logger?.warn(
      { ...logFields, notification: notification.status, err_message: (error as Error).message },
      "payment provider stand-in: payment webhook not delivered",
    );
    return { ok: false, status: null, reason: "billing could not be reached" };
  }
}
