import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Bus, connectBus, type ReconnectOptions } from "@dormant/bus";
import { GATEWAY_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createMetricsRegistry, type Logger, listenWhileStarting, redisConnection, StartupGate } from "@dormant/service-kit";
import { Redis } from "ioredis";
import { createDashboardApp } from "./app.ts";
import { SignInRateLimiter, SignUpRateLimiter } from "./auth/rate-limit.ts";
import { SessionStore } from "./auth/sessions.ts";
import { GatewayClient } from "./bus/gateway.ts";
import { DASHBOARD_FILING_RPC_CATALOG, FilingClient } from "./filings/filing-client.ts";
import { BillingClient, DASHBOARD_BILLING_RPC_CATALOG } from "./money/billing.ts";
import { closeDashboardDb, createDashboardDb } from "./db/client.ts";
import { migrateDashboardDatabase } from "./db/migrations.ts";
import type { DashboardConfig } from "./env.ts";
import { WebhookActionLimiter } from "./webhooks/action-limit.ts";
import { DASHBOARD_NOTIFIER_RPC_CATALOG, NotifierClient } from "./webhooks/notifier-client.ts";

export interface StartDashboardOptions {
  logger: Logger;
  /** Apply pending migrations first (in-process use; `npm start` runs src/migrate.ts). */
  migrate?: boolean;
  reconnect?: ReconnectOptions;
  isAcceptingWork?: () => boolean;
}

export interface DashboardService {
  readonly port: number;
  readonly url: string;
  /** Graceful stop: the HTTP server stops taking requests and finishes those in flight, then the bus, Redis and the database close. */
  stop(): Promise<void>;
}

/** The gateway, billing, filing and notifier RPCs the dashboard calls (it serves none and publishes nothing). */
export const DASHBOARD_RPC_CATALOG = {
  ...GATEWAY_RPC_CATALOG,
  ...DASHBOARD_BILLING_RPC_CATALOG,
  ...DASHBOARD_FILING_RPC_CATALOG,
  ...DASHBOARD_NOTIFIER_RPC_CATALOG,
};

/**
 * Runs the dashboard: the port answers at once (/healthz 200, /readyz 503 and pages 503 while
 * Postgres, Redis and RabbitMQ are awaited), then serves the pages.
 */
export async function startDashboard(config: DashboardConfig, options: StartDashboardOptions): Promise<DashboardService> {
  const { logger } = options;
  if (options.migrate) await migrateDashboardDatabase(config.DASHBOARD_DATABASE_URL, logger);
  const db = createDashboardDb(config.DASHBOARD_DATABASE_URL, {
    max: config.DASHBOARD_DATABASE_POOL_MAX,
    onConnectionError: (error) => logger.warn({ err: error }, "a database connection failed; the pool replaces it"),
  });
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", (error: Error) => logger.warn({ err: error }, "redis connection error"));
  const gate = new StartupGate(logger);
  let bus: Bus<Record<string, never>, typeof DASHBOARD_RPC_CATALOG> | null = null;
  let server: Server | null = null;
  let stopping = false;

  const stop = async () => {
    stopping = true;
    gate.stop();
    if (server?.listening) {
      const closing = server;
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
    await bus?.close().catch((error: unknown) => logger.warn({ err: error }, "closing the bus failed"));
    redis.disconnect();
    await closeDashboardDb(db);
  };

  try {
    const starting = await listenWhileStarting({ port: config.DASHBOARD_PORT, host: config.DASHBOARD_HOST, gate });
    server = starting.server;
    await gate.connect("postgres", async () => void (await db.pool.query("SELECT 1")));
    await gate.connect("redis", redisConnection(redis));
    const connected = await connectBus({
      startup: gate,
      url: config.AMQP_URL,
      service: "dashboard",
      topology: PLATFORM_TOPOLOGY,
      messages: {},
      rpc: DASHBOARD_RPC_CATALOG,
      logger,
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    });
    bus = connected;
    const registry = createMetricsRegistry("dashboard");
    const app = createDashboardApp(
      {
        db,
        sessions: new SessionStore(redis, {
          prefix: config.DASHBOARD_REDIS_PREFIX,
          idleSeconds: config.DASHBOARD_SESSION_IDLE_SECONDS,
          absoluteSeconds: config.DASHBOARD_SESSION_ABSOLUTE_SECONDS,
        }),
        limiter: new SignInRateLimiter(redis, {
          prefix: config.DASHBOARD_REDIS_PREFIX,
          windowSeconds: config.DASHBOARD_SIGNIN_WINDOW_SECONDS,
          perEmail: config.DASHBOARD_SIGNIN_MAX_PER_EMAIL,
          perAddress: config.DASHBOARD_SIGNIN_MAX_PER_ADDRESS,
        }),
        gateway: new GatewayClient(connected),
        logger,
        secureCookies: config.secureCookies,
      },
      {
        registry,
        checks: gate.checks,
        isAcceptingWork: () => !stopping && (options.isAcceptingWork?.() ?? true),
        trustProxyHops: config.DASHBOARD_TRUST_PROXY_HOPS,
        signUp: {
          limiter: new SignUpRateLimiter(redis, {
            prefix: config.DASHBOARD_REDIS_PREFIX,
            windowSeconds: config.DASHBOARD_SIGNUP_WINDOW_SECONDS,
            perAddress: config.DASHBOARD_SIGNUP_MAX_PER_ADDRESS,
          }),
        },
        money: { billing: new BillingClient(connected), publicUrl: config.publicUrl, checkoutOrigins: config.checkoutOrigins },
        filings: { filings: new FilingClient(connected) },
        webhooks: {
          notifier: new NotifierClient(connected),
          limiter: new WebhookActionLimiter(redis, {
            prefix: config.DASHBOARD_REDIS_PREFIX,
            windowSeconds: config.DASHBOARD_WEBHOOK_WINDOW_SECONDS,
            actionsPerAccount: config.DASHBOARD_WEBHOOK_MAX_ACTIONS,
            testsPerAccount: config.DASHBOARD_WEBHOOK_MAX_TESTS,
          }),
        },
      },
    );
    gate.ready({
      database: async () => void (await db.pool.query("SELECT 1")),
      redis: async () => void (await redis.ping()),
      bus: () => connected.readinessCheck(),
    });
    starting.serve(app);
    const port = (server.address() as AddressInfo).port;
    return { port, url: config.DASHBOARD_PUBLIC_URL ? config.publicUrl : `http://localhost:${port}`, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
