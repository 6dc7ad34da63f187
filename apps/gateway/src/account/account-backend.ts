import { type RpcCallingBus, rpcClient } from "@dormant/bus";
import { BILLING_RPC_CATALOG, type BalanceResponse } from "@dormant/contracts";
import { busErrorAsUnavailable } from "../bus/public-bus-error.ts";

/** What the account route needs of the bus: the billing service's balance RPC. */
export type BillingRpcBus = RpcCallingBus<typeof BILLING_RPC_CATALOG>;

export interface AccountBackend {
  getBalance(accountId: string): Promise<BalanceResponse>;
}

/**
 * Balances belong to the billing service; the gateway asks it over `billing.rpc`. An unreachable
 * or slow billing service is a 503 with Retry-After, never a 500.
 */
export function createBusAccountBackend({ bus, timeoutMs = 5_000 }: { bus: BillingRpcBus; timeoutMs?: number }): AccountBackend {
  const call = rpcClient(
    bus,
    BILLING_RPC_CATALOG,
    busErrorAsUnavailable("The billing service is temporarily unavailable; retry in 5 seconds", 5),
  );
  return {
    getBalance: (accountId) => call("billing.get_balance", { account_id: accountId }, { timeoutMs }),
  };
}

/** "80.00" from 8000 pence (negative amounts keep their sign). */
export function formatGbp(pence: number): string {
  const sign = pence < 0 ? "-" : "";
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
