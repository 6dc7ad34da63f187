import { buildRegistryErrorResponse, type GovTalkErrorInput } from "@dormant/govtalk";
import type { RegistryExchange } from "./registry-exchange.ts";

/** A GovTalk `error` answer from the gateway, echoing the request's Class and TransactionID. */
export function registryError(
  exchange: RegistryExchange,
  request: { envelope: { class: string }; transactionId: string | undefined; gatewayTest: boolean } | undefined,
  error: GovTalkErrorInput,
): string {
  return buildRegistryErrorResponse({
    class: request?.envelope.class || "Accounts",
    transactionId: request?.transactionId ?? "",
    gatewayTest: request?.gatewayTest ?? false,
    gatewayTimestamp: new Date(exchange.now).toISOString(),
    errors: [error],
  });
}
