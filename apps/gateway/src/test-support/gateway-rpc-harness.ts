import { type Bus, connectBus, type Subscription } from "@dormant/bus";
import { AppError, BILLING_RPC_CATALOG, GATEWAY_RPC_CATALOG, type OpenAccountRequest, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestVhost, type TestVhost } from "@dormant/testing";
import { serveGatewayRpc } from "../accounts-rpc/serve.ts";
import type { GatewaySettings } from "../app.ts";
import type { KeyChangeLimits } from "../rate-limit/limits.ts";
import { createTestGateway, TEST_PEPPER, type TestGateway } from "./test-gateway.ts";

/** The billing RPCs the stand-in answers: opening an account, and the balance GET /account reads. */
const BILLING_STAND_IN_RPCS = {
  "billing.open_account": BILLING_RPC_CATALOG["billing.open_account"],
  "billing.get_balance": BILLING_RPC_CATALOG["billing.get_balance"],
} as const;

/** The dashboard's side of the bus: it calls gateway.rpc; the stand-in billing serves billing.rpc on it. */
const CLIENT_RPCS = { ...GATEWAY_RPC_CATALOG, ...BILLING_STAND_IN_RPCS } as const;

export interface GatewayRpcHarness {
  gw: TestGateway;
  /** Calls gateway.rpc as the dashboard does. */
  client: Bus<Record<never, never>, typeof CLIENT_RPCS>;
  /** Every billing.open_account the stand-in billing received, in order. */
  openAccountCalls: OpenAccountRequest[];
  /** How many coming billing.open_account calls the stand-in refuses (SERVICE_UNAVAILABLE) before answering again. */
  failNextOpenAccounts(count: number): void;
  close(): Promise<void>;
}

/**
 * A gateway serving gateway.rpc on a vhost of its own, as main.ts wires it, and a stand-in of
 * billing (another team's service) answering billing.open_account and recording the calls.
 */
export async function createGatewayRpcHarness(
  label: string,
  settings: Partial<GatewaySettings> = {},
  options: { keyChangeLimits?: KeyChangeLimits } = {},
): Promise<GatewayRpcHarness> {
  const vhost: TestVhost = await createTestVhost(`gw_rpc_${label}`);
  const gw = await createTestGateway({ label: `rpc_${label}`, amqpUrl: vhost.url, settings });
  const logger = createLogger({ service: "gateway-rpc-test", level: "silent" });
  const serving: Subscription = await serveGatewayRpc({
    bus: gw.bus,
    db: gw.db,
    apiKeyPepper: settings.apiKeyPepper ?? TEST_PEPPER,
    logger,
    redis: gw.redis,
    redisKeyPrefix: gw.redisPrefix,
    ...options,
  });
  const client = await connectBus({
    url: vhost.url,
    service: "dashboard-test",
    topology: PLATFORM_TOPOLOGY,
    messages: {},
    rpc: CLIENT_RPCS,
    logger,
  });
  const openAccountCalls: OpenAccountRequest[] = [];
  let failures = 0;
  const billing = await client.rpcServe("billing.rpc", {
    "billing.open_account": async (request) => {
      openAccountCalls.push(request);
      if (failures > 0) {
        failures -= 1;
        throw new AppError("SERVICE_UNAVAILABLE", "stand-in billing refuses this one", { retryAfterSeconds: 1 });
      }
      return { account_id: request.account_id, created: openAccountCalls.filter((c) => c.account_id === request.account_id).length === 1 };
    },
    "billing.get_balance": async (request) => ({ account_id: request.account_id, balance_pence: 0, held_pence: 0, available_pence: 0 }),
  });
  return {
    gw,
    client,
    openAccountCalls,
    failNextOpenAccounts(count) {
      failures = count;
    },
    async close() {
      await billing?.stop();
      await serving?.stop();
      await client?.close();
      await gw?.close();
      await vhost?.delete();
    },
  };
}
