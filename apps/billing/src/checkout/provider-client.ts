import { AppError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import { z } from "zod";
import type { PaymentProviderConfig } from "../env.ts";
import { formatPence, parseGbpToPence } from "../money/pence.ts";

/**
 * The payment provider's checkout API, as billing uses it (README "Top-ups through the provider's
 * checkout"):
 *   POST {PAYMENT_PROVIDER_URL}/checkout_sessions   Authorization: Bearer {PAYMENT_PROVIDER_API_KEY}
 *   {"account_id", "amount": "50.00", "currency": "GBP", "success_url", "cancel_url"}
 *   -> 201 {"id", "url", "account_id", "amount", "currency", "success_url", "cancel_url"}
 * Locally the authority simulator's stand-in answers it (apps/authority-sim/src/payment-provider).
 */
export interface ProviderCheckoutRequest {
  accountId: string;
  amountPence: bigint;
  successUrl: string;
  cancelUrl: string;
}

export interface ProviderCheckout {
  /** The provider's checkout session id (the payment webhook names it as `checkout_id`). */
  id: string;
  /** The provider's page the agent pays on. */
  url: string;
}

const ProviderCheckoutResponse = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  url: z.url({ protocol: /^https?$/ }),
  account_id: z.string(),
  amount: z.string(),
  currency: z.literal("GBP"),
});

/** What an RPC caller sees when the provider cannot create the checkout: retry shortly. */
function providerUnavailable(message: string, cause?: unknown): AppError {
  return new AppError("SERVICE_UNAVAILABLE", message, { retryable: true, retryAfterSeconds: 5, ...(cause === undefined ? {} : { cause }) });
}

/**
 * Asks the provider for a checkout session. Waits at most `timeoutMs`; every failure (unreachable,
 * timed out, refused, answered something else) is a retryable SERVICE_UNAVAILABLE whose message
 * says what happened, logged without the API key (it travels only in the Authorization header).
 */
export async function createProviderCheckout(
  provider: PaymentProviderConfig,
  request: ProviderCheckoutRequest,
  logger: Logger,
): Promise<ProviderCheckout> {
  const endpoint = `${provider.url}/checkout_sessions`;
  const amount = formatPence(request.amountPence);
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: { authorization: `Bearer ${provider.apiKey}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        account_id: request.accountId,
        amount,
        currency: "GBP",
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      }),
      signal: AbortSignal.timeout(provider.timeoutMs),
      redirect: "error",
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    logger.warn({ endpoint, timed_out: timedOut, err_message: (error as Error).message }, "payment provider unreachable");
    throw providerUnavailable(
      timedOut
        ? `The payment provider did not answer within ${provider.timeoutMs} ms; retry shortly`
        : "The payment provider could not be reached; retry shortly",
      error,
    );
  }
  const text = await response.text().catch(() => "");
  if (response.status !== 201 && response.status !== 200) {
    const level = response.status === 401 || response.status === 403 ? "error" : "warn";
    logger[level]({ endpoint, status: response.status }, "payment provider refused to create a checkout");
    throw providerUnavailable(
      response.status === 401 || response.status === 403
        ? "The payment provider refused billing's credentials; top-ups are unavailable until that is fixed"
        : `The payment provider answered HTTP ${response.status}; retry shortly`,
    );
  }
  let parsed: z.infer<typeof ProviderCheckoutResponse>;
  try {
    parsed = ProviderCheckoutResponse.parse(JSON.parse(text));
  } catch (error) {
    logger.error({ endpoint, status: response.status }, "payment provider answered an unexpected checkout");
    throw providerUnavailable("The payment provider answered something billing does not understand; retry shortly", error);
  }
  if (parsed.account_id !== request.accountId || parseGbpToPence(parsed.amount) !== request.amountPence) {
    logger.error({ endpoint, checkout_id: parsed.id }, "payment provider answered a checkout for another account or amount");
    throw providerUnavailable("The payment provider answered a checkout for another account or amount; retry shortly");
  }
  return { id: parsed.id, url: parsed.url };
}
