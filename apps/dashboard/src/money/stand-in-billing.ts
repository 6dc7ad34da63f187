import { randomBytes } from "node:crypto";
import { type Bus, connectBus, type RpcHandlerMap, type Subscription } from "@dormant/bus";
import { AppError, type BalanceResponse, type CreateCheckoutRequest, type LedgerLine, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { DASHBOARD_BILLING_RPC_CATALOG } from "./billing.ts";

/**
 * A stand-in for billing's side of billing.rpc (another team's service), for tests only, on the
 * real bus of a test vhost: balances and ledgers in memory, newest first, paged like billing.
 */
export interface StandInBilling {
  balances: Map<string, BalanceResponse>;
  ledgers: Map<string, LedgerLine[]>;
  /** Every request answered, in order (which account each asked for). */
  requests: { type: string; payload: unknown }[];
  checkouts: CreateCheckoutRequest[];
  /** Where create_checkout sends the agent. */
  checkoutBase: string;
  close(): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
}

export async function startStandInBilling(amqpUrl: string, checkoutBase: string): Promise<StandInBilling> {
  const balances = new Map<string, BalanceResponse>();
  const ledgers = new Map<string, LedgerLine[]>();
  const requests: { type: string; payload: unknown }[] = [];
  const checkouts: CreateCheckoutRequest[] = [];
  const state = { checkoutBase };
  const handlers: RpcHandlerMap<typeof DASHBOARD_BILLING_RPC_CATALOG, "billing.rpc"> = {
    "billing.get_balance": async (payload) => {
      requests.push({ type: "billing.get_balance", payload });
      return balances.get(payload.account_id) ?? { account_id: payload.account_id, balance_pence: 0, held_pence: 0, available_pence: 0 };
    },
    "billing.list_ledger": async (payload) => {
      requests.push({ type: "billing.list_ledger", payload });
      const all = ledgers.get(payload.account_id) ?? [];
      const lines = all.slice(payload.offset, payload.offset + payload.limit);
      return {
        lines,
        pagination: {
          total: all.length,
          limit: payload.limit,
          offset: payload.offset,
          has_more: payload.offset + lines.length < all.length,
        },
      };
    },
    "billing.create_checkout": async (payload) => {
      requests.push({ type: "billing.create_checkout", payload });
      if (!balances.has(payload.account_id)) throw new AppError("NOT_FOUND", "no such account");
      checkouts.push(payload);
      const id = `cs_${randomBytes(6).toString("hex")}`;
      return { checkout_id: id, checkout_url: `${state.checkoutBase}/checkout/${id}`, amount_pence: payload.amount_pence };
    },
  };
  const bus: Bus<Record<string, never>, typeof DASHBOARD_BILLING_RPC_CATALOG> = await connectBus({
    url: amqpUrl,
    service: "billing-stand-in",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: DASHBOARD_BILLING_RPC_CATALOG,
    logger: createLogger({ service: "billing-stand-in", level: "silent" }),
  });
  let serving: Subscription | null = await bus.rpcServe("billing.rpc", handlers);
  return {
    balances,
    ledgers,
    requests,
    checkouts,
    get checkoutBase() {
      return state.checkoutBase;
    },
    set checkoutBase(value: string) {
      state.checkoutBase = value;
    },
    pause: async () => {
      await serving?.stop();
      serving = null;
    },
    resume: async () => {
      serving ??= await bus.rpcServe("billing.rpc", handlers);
    },
    close: async () => {
      await serving?.stop();
      await bus.close();
    },
  };
}
