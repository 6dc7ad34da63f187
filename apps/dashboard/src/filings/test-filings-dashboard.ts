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
import { DASHBOARD_FILING_RPC_CATALOG, FilingClient } from "./filing-client.ts";
import { type StandInFiling, startStandInFiling } from "./stand-in-filing.ts";

/** The test dashboard (real Postgres, Redis and vhost; stand-in gateway) with the Filings pages and a stand-in filing service. */
export interface TestFilingsDashboard {
  base: TestDashboard;
  app: express.Express;
  filing: StandInFiling;
  close(): Promise<void>;
}

export async function createTestFilingsDashboard(label: string): Promise<TestFilingsDashboard> {
  const base = await createTestDashboard(label);
  let scope: TestRedis | undefined;
  let bus: Bus<Record<string, never>, typeof RPC> | undefined;
  let filing: StandInFiling | undefined;
  const RPC = { ...GATEWAY_RPC_CATALOG, ...DASHBOARD_FILING_RPC_CATALOG };
  try {
    filing = await startStandInFiling(base.amqpUrl);
    scope = createTestRedisPrefix(`dash_${label}_filings`);
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
      { registry: createMetricsRegistry("dashboard"), checks: {}, filings: { filings: new FilingClient(bus) } },
    );
    const opened = { bus, filing, scope };
    return {
      base,
      app,
      filing,
      close: async () => {
        await opened.bus.close().catch(() => undefined);
        await opened.filing.close().catch(() => undefined);
        await opened.scope.cleanup();
        await base.close();
      },
    };
  } catch (error) {
    await bus?.close().catch(() => undefined);
    await filing?.close().catch(() => undefined);
    await scope?.cleanup();
    await base.close();
    throw error;
  }
}
