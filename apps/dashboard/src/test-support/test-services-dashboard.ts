import { type Bus, connectBus } from "@dormant/bus";
import { GATEWAY_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, createMetricsRegistry } from "@dormant/service-kit";
import { createTestRedisPrefix, type TestRedis } from "@dormant/testing";
import type express from "express";
import { createDashboardApp, type DashboardAppOptions } from "../app.ts";
import { SignInRateLimiter } from "../auth/rate-limit.ts";
import { SessionStore } from "../auth/sessions.ts";
import { GatewayClient } from "../bus/gateway.ts";
import { DASHBOARD_FILING_RPC_CATALOG, FilingClient } from "../filings/filing-client.ts";
import { type StandInFiling, startStandInFiling } from "../filings/stand-in-filing.ts";
import { BillingClient, DASHBOARD_BILLING_RPC_CATALOG } from "../money/billing.ts";
import { type StandInBilling, startStandInBilling } from "../money/stand-in-billing.ts";
import { createTestDashboard, type TestDashboard } from "./test-dashboard.ts";

export const TEST_PUBLIC_URL = "https://dashboard.example.test";
export const TEST_CHECKOUT_ORIGIN = "http://127.0.0.1:4100";

/** The bus the test dashboard calls on: the gateway, billing and the filing service, as service.ts wires them. */
const RPC = { ...GATEWAY_RPC_CATALOG, ...DASHBOARD_BILLING_RPC_CATALOG, ...DASHBOARD_FILING_RPC_CATALOG };

/** Which pages to serve, each with a stand-in of the service behind it. */
export interface TestServices {
  /** The Money page, with a stand-in billing on billing.rpc. */
  money?: boolean;
  /** The Filings pages, with a stand-in filing service on filing.rpc (the sandbox RPCs come from the stand-in gateway). */
  filings?: boolean;
}

export type TestServicesDashboard<S extends TestServices> = {
  base: TestDashboard;
  app: express.Express;
  close(): Promise<void>;
} & (S["money"] extends true ? { billing: StandInBilling } : unknown) &
  (S["filings"] extends true ? { filing: StandInFiling } : unknown);

/**
 * The test dashboard (real Postgres, Redis and vhost; stand-in gateway) serving the asked-for
 * pages, the app talking over the bus to stand-ins of the services behind them. Close it in afterAll.
 */
export async function createTestServicesDashboard<S extends TestServices>(label: string, services: S): Promise<TestServicesDashboard<S>> {
  const base = await createTestDashboard(label);
  let scope: TestRedis | undefined;
  let bus: Bus<Record<string, never>, typeof RPC> | undefined;
  let billing: StandInBilling | undefined;
  let filing: StandInFiling | undefined;
  const closeAll = async () => {
    await bus?.close().catch(() => undefined);
    await billing?.close().catch(() => undefined);
    await filing?.close().catch(() => undefined);
    await scope?.cleanup();
    await base.close();
  };
  try {
    if (services.money) billing = await startStandInBilling(base.amqpUrl, `${TEST_CHECKOUT_ORIGIN}/payment-provider/v1`);
    if (services.filings) filing = await startStandInFiling(base.amqpUrl);
    scope = createTestRedisPrefix(`dash_${label}_services`);
    const logger = createLogger({ service: "dashboard-test", level: "silent" });
    bus = await connectBus({ url: base.amqpUrl, service: "dashboard-test", topology: PLATFORM_TOPOLOGY, messages: {}, rpc: RPC, logger });
    const prefix = scope.prefix;
    const options: DashboardAppOptions = { registry: createMetricsRegistry("dashboard"), checks: {} };
    if (services.money)
      options.money = { billing: new BillingClient(bus), publicUrl: TEST_PUBLIC_URL, checkoutOrigins: [TEST_CHECKOUT_ORIGIN] };
    if (services.filings) options.filings = { filings: new FilingClient(bus) };
    const app = createDashboardApp(
      {
        db: base.db,
        sessions: new SessionStore(base.redis, { prefix, idleSeconds: 600, absoluteSeconds: 3600 }),
        limiter: new SignInRateLimiter(base.redis, { prefix, windowSeconds: 900, perEmail: 5, perAddress: 20 }),
        gateway: new GatewayClient(bus),
        logger,
        secureCookies: false,
      },
      options,
    );
    return { base, app, billing, filing, close: closeAll } as unknown as TestServicesDashboard<S>;
  } catch (error) {
    await closeAll();
    throw error;
  }
}
