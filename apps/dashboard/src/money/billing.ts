import { type RpcCallingBus, rpcClient } from "@dormant/bus";
import {
  BILLING_RPC_CATALOG,
  type BalanceResponse,
  type CheckoutSession,
  type CreateCheckoutRequest,
  type LedgerPage,
} from "@dormant/contracts";
import { dashboardRpcErrors } from "../bus/unavailable.ts";

/** The billing RPCs the dashboard calls (and only those: a stand-in serves exactly these). */
export const DASHBOARD_BILLING_RPC_CATALOG = {
  "billing.get_balance": BILLING_RPC_CATALOG["billing.get_balance"],
  "billing.list_ledger": BILLING_RPC_CATALOG["billing.list_ledger"],
  "billing.create_checkout": BILLING_RPC_CATALOG["billing.create_checkout"],
} as const;

export type BillingBus = RpcCallingBus<typeof DASHBOARD_BILLING_RPC_CATALOG>;

/**
 * The account's balance, ledger and top-ups, through billing's RPCs on billing.rpc (never its
 * tables). A refused top-up is billing's VALIDATION_ERROR; billing out of reach (or without a
 * payment provider) is ServiceUnavailableError.
 */
export class BillingClient {
  private readonly rpc;

  constructor(bus: BillingBus) {
    this.rpc = rpcClient(bus, DASHBOARD_BILLING_RPC_CATALOG, dashboardRpcErrors("billing", { passCodes: ["VALIDATION_ERROR"] }));
  }

  getBalance(accountId: string): Promise<BalanceResponse> {
    return this.rpc("billing.get_balance", { account_id: accountId });
  }

  listLedger(accountId: string, limit: number, offset: number): Promise<LedgerPage> {
    return this.rpc("billing.list_ledger", { account_id: accountId, limit, offset });
  }

  createCheckout(request: CreateCheckoutRequest): Promise<CheckoutSession> {
    return this.rpc("billing.create_checkout", request);
  }
}
