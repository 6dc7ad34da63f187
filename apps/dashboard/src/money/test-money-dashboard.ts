import { type Bus, connectBus } from "@dormant/bus";
import { GATEWAY_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, createMetricsRegistry } from "@dormant/service-kit";
import { createTestRedisPrefix, type TestRedis } from "@dormant/testing";
import type express from "express";
import { createDashboardApp } from "../app.ts";
import { SignInRateLimiter } from "../auth/rate-limit.ts";
import { SessionStore } from "../auth/sessions.ts";
import { GatewayClient } from "../bus/gateway.ts";
import { createTestDashboard, type TestDashboard } from "../test-support/test-dashboard.ts";
import { BillingClient, DASHBOARD_BILLING_RPC_CATALOG } from "./billing.ts";
import { type StandInBilling, startStandInBilling } from "./stand-in-billing.ts";

export const TEST_PUBLIC_URL = "https://dashboard.example.test";
export const TEST_CHECKOUT_ORIGIN = "http://127.0.0.1:4100";

/**
 * The test dashboard (real Postgres, Redis and vhost; stand-in gateway) with the Money page: the
 * app talks to a stand-in billing on billing.rpc of the same test vhost.
 */
export interface TestMoneyDashboard {
  base: TestDashboard;
  app: express.Express;
  billing: StandInBilling;
  close(): Promise<void>;
}

export async function createTestMoneyDashboard(label: string): Promise<TestMoneyDashboard> {
  const base = await createTestDashboard(label);
  let scope: TestRedis | undefined;
  let bus: Bus<Record<string, never>, typeof RPC> | undefined;
  let billing: StandInBilling | undefined;
  const RPC = { ...GATEWAY_RPC_CATALOG, ...DASHBOARD_BILLING_RPC_CATALOG };
  try {
    billing = await startStandInBilling(base.amqpUrl, `${TEST_CHECKOUT_ORIGIN}/payment-provider/v1`);
    scope = createTestRedisPrefix(`dash_${label}_money`);
    const logger = createLogger({ service: "dashboard-test", level: "silent" });
    bus = await connectBus({ url: base.amqpUrl, service: "dashboard-test", topology: PLATFORM_TOPOLOGY, messages: {}, rpc: RPC, logger });
    const prefix = scope.prefix;
    const app = createDashboardApp(
      {
        db: base.db,
        sessions: new SessionStore(base.redis, { prefix, idleSeconds: 600, absoluteSeconds: 3600 }),
        limiter: new SignInRateLimiter(base.redis, { prefix, windowSeconds: 900, perEmail: 5, perAddress: 20 }),
        gateway: new GatewayClient(bus),
        logger,
        secureCookies: false,
      },
      {
        registry: createMetricsRegistry("dashboard"),
        checks: {},
        money: { billing: new BillingClient(bus), publicUrl: TEST_PUBLIC_URL, checkoutOrigins: [TEST_CHECKOUT_ORIGIN] },
      },
    );
    const opened = { bus, billing, scope };
    return {
      base,
      app,
      billing,
      close: async () => {
        await opened.bus.close().catch(() => undefined);
        await opened.billing.close().catch(() => undefined);
        await opened.scope.cleanup();
        await base.close();
      },
    };
  } catch (error) {
    await bus?.close().catch(() => undefined);
    await billing?.close().catch(() => undefined);
    await scope?.cleanup();
    await base.close();
    throw error;
  }
}
