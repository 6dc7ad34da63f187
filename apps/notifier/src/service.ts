import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connectBus, type Bus, type ReconnectOptions, type Subscription } from "@dormant/bus";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, createMetricsRegistry, type Logger, StartupGate, startOpsServer } from "@dormant/service-kit";
import {
  NOTIFIER_DELIVERIES_QUEUE,
  NOTIFIER_EVENTS_QUEUE,
  NOTIFIER_MESSAGE_CATALOG,
  NOTIFIER_RPC_CATALOG,
  NOTIFIER_TEST_DELIVERIES_QUEUE,
} from "./bus/catalog.ts";
import { closeNotifierDb, createNotifierDb } from "./db/client.ts";
import { migrateNotifierDatabase } from "./db/migrations.ts";
import { Deliverer, type DeliveryMode, type PublishDeliver } from "./delivery/deliverer.ts";
import { closeWebhookConnections } from "./delivery/http-attempt.ts";
import { purgeSettledDeliveries } from "./delivery/retention.ts";
import { refreshBacklogAge, sweepOverdueDeliveries } from "./delivery/sweeper.ts";
import { endpointRpcHandlers } from "./endpoints/rpc-handlers.ts";
import type { NotifierConfig } from "./env.ts";
import { intakeHandlers } from "./intake/intake.ts";
import { createNotifierMetrics } from "./metrics.ts";
import { PeriodicTask } from "@dormant/service-kit";

export interface StartNotifierOptions {
  logger?: Logger;
  /** Apply pending migrations first (in-process use by tests; `npm start` runs src/migrate.ts). */
  migrate?: boolean;
  /** Bus reconnection timing (tests shorten it). */
  reconnect?: ReconnectOptions;
}

export interface NotifierService {
  /** The port of the ops endpoints (the real one when NOTIFIER_PORT is 0). */
  readonly port: number;
  readonly url: string;
  /**
   * Graceful stop: readiness turns 503, the sweeper stops, the consumers and the RPC server stop
   * taking messages and wait for those in flight (attempts under way finish, at most the webhook
   * time-out), then the bus, the ops server and the database are closed.
   */
  stop(): Promise<void>;
}

/**
 * Runs the notifier: serves `notifier.rpc` (endpoints), consumes `notifier.events` (filing and
 * sandbox events -> deliveries) and `notifier.deliveries` (attempts and retries), sweeps overdue
 * deliveries, and serves /healthz, /readyz and /metrics on NOTIFIER_PORT.
 */
export async function startNotifier(config: NotifierConfig, options: StartNotifierOptions = {}): Promise<NotifierService> {
  const logger =
    options.logger ??
    createLogger({
      service: "notifier",
      version: config.SERVICE_VERSION,
      ...(config.LOG_LEVEL ? { level: config.LOG_LEVEL } : {}),
      ...(config.LOG_FORMAT ? { format: config.LOG_FORMAT } : {}),
    });
  if (options.migrate) await migrateNotifierDatabase(config.NOTIFIER_DATABASE_URL, logger);

  const db = createNotifierDb(config.NOTIFIER_DATABASE_URL, {
    max: config.NOTIFIER_DATABASE_POOL_MAX,
    onConnectionError: (error) => logger.warn({ err: error }, "a database connection failed; the pool replaces it"),
  });
  const registry = createMetricsRegistry("notifier");
  const metrics = createNotifierMetrics(registry);
  const subscriptions: Subscription[] = [];
  let bus: Bus<typeof NOTIFIER_MESSAGE_CATALOG, typeof NOTIFIER_RPC_CATALOG> | null = null;
  let server: Server | null = null;
  let stopping = false;
  const tasks: PeriodicTask[] = [];

  const stop = async () => {
    stopping = true;
    await Promise.all(tasks.splice(0).map((task) => task.stop()));
    await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
    await bus?.close().catch((error: unknown) => logger.warn({ err: error }, "closing the bus failed"));
    if (server?.listening) {
      const closing = server;
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
    await closeNotifierDb(db);
    closeWebhookConnections();
  };

  try {
    // The ops endpoints answer first: /readyz is 503 while Postgres and RabbitMQ are waited for
    // (each retried with capped backoff for as long as it takes), then runs their checks.
    const gate = new StartupGate(logger);
    server = await startOpsServer({
      registry,
      checks: gate.checks,
      isAcceptingWork: () => !stopping,
      port: config.NOTIFIER_PORT,
      host: config.NOTIFIER_HOST,
      logger,
    });
    await gate.connect("postgres", async () => void (await db.pool.query("SELECT 1")));
    const connected = await connectBus({
      startup: gate,
      url: config.AMQP_URL,
      service: "notifier",
      topology: PLATFORM_TOPOLOGY,
      messages: NOTIFIER_MESSAGE_CATALOG,
      rpc: NOTIFIER_RPC_CATALOG,
      logger,
      metrics: registry,
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    });
    bus = connected;
    const publish: PublishDeliver = async (command, delayMs, mode) => {
      await connected.publish(mode === "test" ? "notifier.deliver_test" : "notifier.deliver", command, delayMs > 0 ? { delayMs } : {});
    };
    const deliverNow = (deliveryId: string, mode: DeliveryMode) => publish({ delivery_id: deliveryId }, 0, mode);
    const deliverer = new Deliverer({
      db,
      logger,
      metrics,
      publish,
      settings: {
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        retryScheduleSeconds: config.retryScheduleSeconds,
        retryHorizonSeconds: config.WEBHOOK_RETRY_HORIZON_SECONDS,
        disableAfterSeconds: config.WEBHOOK_DISABLE_AFTER_SECONDS,
        endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
        accountConcurrency: config.WEBHOOK_ACCOUNT_CONCURRENCY,
        hostConcurrency: config.WEBHOOK_HOST_CONCURRENCY,
        allowPrivateUrls: config.allowPrivateUrls,
        httpsOnly: config.httpsOnly,
        sealingKeys: config.sealingKeys,
      },
    });
    const intake = { db, logger, metrics, deliverNow };

    subscriptions.push(
      await connected.rpcServe(
        "notifier.rpc",
        endpointRpcHandlers({
          ...intake,
          sealingKeys: config.sealingKeys,
          allowPrivateUrls: config.allowPrivateUrls,
          httpsOnly: config.httpsOnly,
          secretOverlapSeconds: config.WEBHOOK_SECRET_OVERLAP_SECONDS,
        }),
        { prefetch: config.NOTIFIER_RPC_PREFETCH },
      ),
    );
    subscriptions.push(
      await connected.consume(NOTIFIER_EVENTS_QUEUE, intakeHandlers(intake), { prefetch: config.NOTIFIER_EVENTS_PREFETCH }),
    );
    subscriptions.push(
      await connected.consume(
        NOTIFIER_DELIVERIES_QUEUE,
        { "notifier.deliver": (message, context) => deliverer.handle(message.payload, "live", context.signal) },
        { prefetch: config.NOTIFIER_DELIVERIES_PREFETCH },
      ),
    );
    // Test mode (sandbox events, "Send test") on a queue and consumer of its own: a burst of them,
    // or test endpoints that never answer, cannot take the live deliveries' slots.
    subscriptions.push(
      await connected.consume(
        NOTIFIER_TEST_DELIVERIES_QUEUE,
        { "notifier.deliver_test": (message, context) => deliverer.handle(message.payload, "test", context.signal) },
        { prefetch: config.NOTIFIER_TEST_DELIVERIES_PREFETCH },
      ),
    );

    tasks.push(
      new PeriodicTask(
        "webhook sweeper",
        config.WEBHOOK_SWEEP_INTERVAL_MS,
        () => sweepOverdueDeliveries(db, deliverNow, logger, config.WEBHOOK_SWEEP_OVERDUE_SECONDS),
        logger,
      ),
      new PeriodicTask("webhook backlog age", config.WEBHOOK_BACKLOG_INTERVAL_MS, () => refreshBacklogAge(db, metrics), logger),
      new PeriodicTask(
        "webhook retention",
        config.WEBHOOK_RETENTION_INTERVAL_MS,
        () => purgeSettledDeliveries(db, config.WEBHOOK_RETENTION_SECONDS),
        logger,
      ),
    );
    for (const task of tasks) task.start();

    gate.ready({ database: async () => void (await db.pool.query("SELECT 1")), bus: () => connected.readinessCheck() });
    const port = (server.address() as AddressInfo).port;
    logger.info(
      { port },
      "notifier running (rpc notifier.rpc, events notifier.events, deliveries notifier.deliveries and notifier.test_deliveries)",
    );
    return { port, url: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
