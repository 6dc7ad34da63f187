import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connectBus, type Bus, type ReconnectOptions, type Subscription } from "@dormant/bus";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, createMetricsRegistry, listenWhileStarting, type Logger, StartupGate } from "@dormant/service-kit";
import { BILLING_EVENT_CATALOG, BILLING_EVENTS_QUEUE, BILLING_RPC_CATALOG } from "./bus/catalog.ts";
import { billingEventHandlers } from "./bus/event-handlers.ts";
import { billingRpcHandlers } from "./bus/rpc-handlers.ts";
import { closeBillingDb, createBillingDb } from "./db/client.ts";
import { migrateBillingDatabase } from "./db/migrations.ts";
import type { BillingConfig } from "./env.ts";
import { createBillingApp } from "./http/app.ts";
import { createBillingMetrics } from "./metrics.ts";

export interface StartBillingOptions {
  logger?: Logger;
  /** Apply pending migrations first (in-process use by tests; `npm start` runs src/migrate.ts). */
  migrate?: boolean;
  /** Bus reconnection timing (tests shorten it). */
  reconnect?: ReconnectOptions;
}

export interface BillingService {
  /** The port the webhook and ops endpoints listen on (the real one when BILLING_PORT is 0). */
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /**
   * Graceful stop: readiness turns 503, the HTTP server stops taking requests and finishes those
   * in flight, the RPC server and the event consumer stop and wait for their handlers (anything
   * unacknowledged goes back to the queue), then the bus and the database are closed.
   */
  stop(): Promise<void>;
}

/**
 * Runs the billing service: serves `billing.rpc` (hold, release, get_balance), consumes
 * `billing.events` (capture or release on filing outcomes) and listens on BILLING_PORT for the
 * payment provider's webhook and the ops endpoints. Used by main.ts and, in-process, by other
 * services' integration tests.
 */
export async function startBilling(config: BillingConfig, options: StartBillingOptions = {}): Promise<BillingService> {
  const logger =
    options.logger ??
    createLogger({
      service: "billing",
      version: config.SERVICE_VERSION,
      ...(config.LOG_LEVEL ? { level: config.LOG_LEVEL } : {}),
      ...(config.LOG_FORMAT ? { format: config.LOG_FORMAT } : {}),
    });
  if (options.migrate) await migrateBillingDatabase(config.BILLING_DATABASE_URL, logger);

  const db = createBillingDb(config.BILLING_DATABASE_URL, {
    onConnectionError: (error) => logger.warn({ err: error }, "a database connection failed; the pool replaces it"),
  });
  const registry = createMetricsRegistry("billing");
  const metrics = createBillingMetrics(registry);
  const subscriptions: Subscription[] = [];
  let bus: Bus<typeof BILLING_EVENT_CATALOG, typeof BILLING_RPC_CATALOG> | null = null;
  let server: Server | null = null;
  let stopping = false;

  const stop = async () => {
    stopping = true;
    if (server?.listening) await closeServer(server);
    await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
    await bus?.close().catch((error: unknown) => logger.warn({ err: error }, "closing the bus failed"));
    await closeBillingDb(db);
  };

  try {
    // The port answers first (/healthz 200, /readyz 503, the webhook 503) while Postgres and
    // RabbitMQ are waited for, each retried with capped backoff for as long as it takes.
    if (!config.paymentProvider)
      logger.warn("no payment provider configured (PAYMENT_PROVIDER_URL): billing.create_checkout refuses top-ups");
    else logger.info({ payment_provider: config.paymentProvider.url }, "top-up checkouts go to the payment provider");
    const gate = new StartupGate(logger);
    const listening = await listenWhileStarting({ port: config.BILLING_PORT, host: config.BILLING_HOST, gate });
    server = listening.server;
    await gate.connect("postgres", async () => void (await db.$queryRaw`SELECT 1`));
    bus = await connectBus({
      startup: gate,
      url: config.AMQP_URL,
      service: "billing",
      topology: PLATFORM_TOPOLOGY,
      messages: BILLING_EVENT_CATALOG,
      rpc: BILLING_RPC_CATALOG,
      logger,
      metrics: registry,
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    });
    subscriptions.push(
      await bus.rpcServe("billing.rpc", billingRpcHandlers({ db, logger, metrics, paymentProvider: config.paymentProvider }), {
        prefetch: config.BILLING_RPC_PREFETCH,
      }),
    );
    subscriptions.push(
      await bus.consume(BILLING_EVENTS_QUEUE, billingEventHandlers({ db, logger, metrics }), { prefetch: config.BILLING_EVENTS_PREFETCH }),
    );

    const connectedBus = bus;
    const app = createBillingApp({
      db,
      logger,
      registry,
      metrics,
      webhook: { secret: config.webhookSecret, toleranceSeconds: config.PAYMENT_WEBHOOK_TOLERANCE_SECONDS },
      checks: { database: async () => void (await db.$queryRaw`SELECT 1`), bus: () => connectedBus.readinessCheck() },
      isAcceptingWork: () => !stopping,
    });
    listening.serve(app);
    gate.ready();
    const port = (listening.server.address() as AddressInfo).port;
    logger.info({ port }, "billing running (rpc billing.rpc, events billing.events, POST /webhooks/payments, /healthz, /readyz, /metrics)");
    return { port, url: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** Stops accepting connections, closes idle keep-alive ones at once and waits for the rest. */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const sweeper = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(sweeper);
      resolve();
    });
    server.closeIdleConnections();
  });
}
