import type { Bus } from "@dormant/bus";
import {
  AppError,
  BILLING_RPC_CATALOG,
  BILLING_RPC_QUEUE,
  type BalanceResponse,
  type CheckoutSession,
  type CreateCheckoutRequest,
  type LedgerPage,
} from "@dormant/contracts";

/** The billing RPCs the dashboard calls (and only those: a stand-in serves exactly these). */
export const DASHBOARD_BILLING_RPC_CATALOG = {
  "billing.get_balance": BILLING_RPC_CATALOG["billing.get_balance"],
  "billing.list_ledger": BILLING_RPC_CATALOG["billing.list_ledger"],
  "billing.create_checkout": BILLING_RPC_CATALOG["billing.create_checkout"],
} as const;

/** Billing is unreachable (no server, time-out, broker down, no payment provider): the page answers 503. */
export class BillingUnavailableError extends Error {
  constructor(cause: unknown) {
    super("billing did not answer", { cause });
    this.name = "BillingUnavailableError";
  }
}

export type BillingBus = Pick<Bus<Record<string, never>, typeof DASHBOARD_BILLING_RPC_CATALOG>, "rpcCall">;

/** The account's balance, ledger and top-ups, through billing's RPCs on billing.rpc (never its tables). */
export class BillingClient {
  constructor(private readonly bus: BillingBus) {}

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && error.code === "VALIDATION_ERROR") throw error;
      throw new BillingUnavailableError(error);
    }
  }

  getBalance(accountId: string): Promise<BalanceResponse> {
    return this.call(() => this.bus.rpcCall(BILLING_RPC_QUEUE, "billing.get_balance", { account_id: accountId }));
  }

  listLedger(accountId: string, limit: number, offset: number): Promise<LedgerPage> {
    return this.call(() => this.bus.rpcCall(BILLING_RPC_QUEUE, "billing.list_ledger", { account_id: accountId, limit, offset }));
  }

  createCheckout(request: CreateCheckoutRequest): Promise<CheckoutSession> {
    return this.call(() => this.bus.rpcCall(BILLING_RPC_QUEUE, "billing.create_checkout", request));
  }
}
