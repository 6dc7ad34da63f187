import type { Server } from "node:http";
import { connectBus, type Subscription } from "@dormant/bus";
import { createRegistryDataClient } from "@dormant/company-data";
import { PLATFORM_TOPOLOGY, type SealingKey } from "@dormant/contracts";
import { createLogger, createMetricsRegistry, type Logger, redisConnection, StartupGate, startOpsServer } from "@dormant/service-kit";
import { Redis } from "ioredis";
import type { Registry } from "prom-client";
import { FILING_SERVICE_MESSAGES, FILING_SERVICE_RPC, type FilingBus } from "./bus-catalog.ts";
import { createFilingDb, type FilingDb } from "./db/client.ts";
import type { SubmitDeps } from "./submit/submit-deps.ts";
import type { DocumentDeps } from "./documents/document-deps.ts";
import { completeDocuments } from "./documents/complete-documents.ts";
import { documentsHandlers } from "./documents/documents-consumer.ts";
import { createPdfRenderer } from "./documents/create-pdf-renderer.ts";
import type { FilingConfig } from "./env.ts";
import { createFilingMetrics } from "./metrics.ts";
import { oldestUnfinished } from "./reads/filing-activity.ts";
import { outcomeHandlers } from "./outcomes/outcome-handlers.ts";
import { OutboxRelay } from "./outbox/relay.ts";
import { createRegistryDataSource } from "./registry-data/registry-data-source.ts";
import { filingRpcHandlers } from "./rpc-handlers.ts";
import { busSubmissionResolver } from "./sweeper/resolve-submissions.ts";
import { sweepPendingFilings } from "./sweeper/sweep-pending.ts";
import { PeriodicTask } from "@dormant/service-kit";

export interface FilingServiceOptions {
  logger?: Logger;
  /** False once shutdown started (readiness turns 503). */
  isAcceptingWork?: () => boolean;
  /** Serve /healthz, /readyz, /metrics on OPS_PORT (default true). */
  ops?: boolean;
}

export interface FilingService {
  db: FilingDb;
  bus: FilingBus;
  redis: Redis;
  relay: OutboxRelay;
  metrics: Registry;
  /** The ops server's port, when it runs. */
  opsPort: number | undefined;
  /** Graceful stop: no new work, in-flight work finished, the outbox flushed, connections closed. */
  stop(): Promise<void>;
}

function currentKeyFirst(keys: SealingKey[]): readonly [SealingKey, ...SealingKey[]] {
  const [current, ...retired] = keys;
  if (!current) throw new Error("no credentials sealing key configured");
  return [current, ...retired];
}

/** How long a duplicate submit waits for the request working on the same filing (within the RPC's 30 s). */
const CLAIM_WAIT_MS = 20_000;
const SWEEP_BATCH = 100;
/** How far back the documents sweep looks for accepted filings without their documents: a week. */
const DOCUMENTS_SWEEP_WITHIN_SECONDS = 7 * 24 * 60 * 60;
/** The `result` label of filing_sweeper_settled_total for each kind of settled filing. */
const SWEEP_RESULT_LABEL = {
  acknowledged: "acknowledged",
  unsent: "unsent",
  partlySent: "partly_sent",
  awaitingRetry: "awaiting_retry",
  inDoubt: "in_doubt",
} as const;
const FLUSH_TIMEOUT_MS = 5_000;

/**
 * Starts the filing service in this process: database, Redis, bus (topology declared on
 * connect), the filing.rpc server, the filing.outcomes consumer, the filing.documents consumer
 * (PDFs of accepted filings, rendered on worker threads), the outbox relay, the pending sweeper
 * (with the documents sweep: accepted filings still without their documents) and the ops endpoints. main.ts runs it; tests start it in-process.
 */
export async function startFilingService(config: FilingConfig, options: FilingServiceOptions = {}): Promise<FilingService> {
  const logger = options.logger ?? createLogger({ service: "filing", version: config.SERVICE_VERSION });
  const registry = createMetricsRegistry("filing");
  const metrics = createFilingMetrics(registry);
  const db = createFilingDb(config.FILING_DATABASE_URL, { poolMax: config.FILING_DATABASE_POOL_MAX });
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", (error: Error) => logger.warn({ err: error }, "redis connection error"));
  const closers: Array<() => Promise<unknown>> = [() => db.$disconnect(), () => redis.quit().catch(() => redis.disconnect())];
  const closeAll = async () => {
    for (const close of closers.reverse())
      await close().catch((error: unknown) => logger.warn({ err: error }, "closing a connection failed"));
  };

  // The ops endpoints answer first: /readyz is 503 while Postgres, Redis and RabbitMQ are waited
  // for (each retried with capped backoff for as long as it takes), then runs their checks.
  const gate = new StartupGate(logger);
  let ops: Server | undefined;
  try {
    if (options.ops !== false) {
      ops = await startOpsServer({
        registry,
        port: config.OPS_PORT,
        host: config.OPS_HOST,
        logger,
        ...(options.isAcceptingWork ? { isAcceptingWork: options.isAcceptingWork } : {}),
        checks: gate.checks,
      });
      const server = ops;
      closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    }
    await gate.connect("postgres", async () => void (await db.$queryRaw`SELECT 1`));
    await gate.connect("redis", redisConnection(redis));
    const bus = await connectBus({
      startup: gate,
      url: config.AMQP_URL,
      service: "filing",
      topology: PLATFORM_TOPOLOGY,
      messages: FILING_SERVICE_MESSAGES,
      rpc: FILING_SERVICE_RPC,
      logger,
      metrics: registry,
    });
    closers.push(() => bus.close());

    const relay = new OutboxRelay({
      db,
      bus,
      logger,
      metrics,
      intervalMs: config.OUTBOX_RELAY_INTERVAL_MS,
      batchSize: config.OUTBOX_BATCH_SIZE,
    });
    const registryData = createRegistryDataSource({
      client: createRegistryDataClient({
        baseUrl: config.REGISTRY_DATA_URL,
        apiKey: config.REGISTRY_DATA_API_KEY,
        timeoutMs: config.REGISTRY_DATA_TIMEOUT_MS,
      }),
      redis,
      keyPrefix: config.REDIS_KEY_PREFIX,
      ttlSeconds: config.REGISTRY_CACHE_TTL_SECONDS,
      notFoundTtlSeconds: config.REGISTRY_NOT_FOUND_TTL_SECONDS,
      logger,
      onLookup: (result) => metrics.registryLookups.inc({ result }),
    });
    const deps: SubmitDeps = {
      db,
      bus,
      registry: registryData,
      sealingKeys: currentKeyFirst(config.sealingKeys),
      logger,
      wakeRelay: () => relay.wake(),
      claimSeconds: config.SUBMIT_CLAIM_SECONDS,
      claimWaitMs: CLAIM_WAIT_MS,
      now: () => new Date(),
    };
    const resolver = busSubmissionResolver(bus);
    // PDFs render on their own threads (FILING_DOCUMENT_RENDER_THREADS, 0: inline). Closed after
    // the consumers below have stopped (closers run in reverse), once the renders in flight are done.
    const renderer = createPdfRenderer({
      threads: config.FILING_DOCUMENT_RENDER_THREADS,
      logger,
      observer: {
        rendered: (type, renderSeconds, waitSeconds) => {
          metrics.renderSeconds.observe({ type, mode: renderer.mode }, renderSeconds);
          if (renderer.mode === "thread") metrics.renderWaitSeconds.observe(waitSeconds);
        },
        threadLost: (reason) => metrics.renderThreadsLost.inc({ reason }),
      },
    });
    metrics.watchRenders(() => renderer.pending());
    closers.push(() => renderer.close());
    const documents: DocumentDeps = {
      db,
      logger,
      now: () => new Date(),
      renderer,
      resolver,
      onRendered: (type, trigger) => metrics.documentsRendered.inc({ type, trigger }),
    };
    const sweeper = new PeriodicTask(
      "pending sweeper",
      config.SWEEPER_INTERVAL_MS,
      async () => {
        const swept = await sweepPendingFilings(
          { db, resolver, logger },
          {
            olderThanSeconds: config.SWEEPER_PENDING_AFTER_SECONDS,
            batchSize: SWEEP_BATCH,
            partlySentGiveUpSeconds: config.SWEEPER_PARTLY_SENT_GIVE_UP_SECONDS,
          },
        );
        // Accepted filings still without their documents (a submit's record that never came,
        // a parked filing.accepted): completed here (documents/complete-documents.ts).
        const completed = await completeDocuments(documents, {
          olderThanSeconds: config.SWEEPER_PENDING_AFTER_SECONDS,
          withinSeconds: DOCUMENTS_SWEEP_WITHIN_SECONDS,
          batchSize: SWEEP_BATCH,
        });
        if (completed.completed.length > 0 || completed.waiting.length > 0) {
          logger.warn(completed, "documents sweep: accepted filings without their documents");
          relay.wake();
        }
        const count =
          swept.acknowledged.length + swept.unsent.length + swept.partlySent.length + swept.awaitingRetry.length + swept.inDoubt.length;
        for (const result of ["acknowledged", "unsent", "partlySent", "awaitingRetry", "inDoubt"] as const) {
          if (swept[result].length > 0) metrics.swept.inc({ result: SWEEP_RESULT_LABEL[result] }, swept[result].length);
        }
        if (count > 0) {
          logger.warn(swept, "sweeper settled pending filings");
          relay.wake();
        }
        return count >= SWEEP_BATCH;
      },
      logger,
    );

    relay.start();
    closers.push(async () => {
      await relay.stop();
      await relay.flush(FLUSH_TIMEOUT_MS);
    });
    sweeper.start();
    closers.push(() => sweeper.stop());
    metrics.watchUnfinished(() => oldestUnfinished(db, new Date()));
    const subscriptions: Subscription[] = [];
    subscriptions.push(await bus.rpcServe("filing.rpc", filingRpcHandlers(deps, documents, metrics), { prefetch: config.RPC_PREFETCH }));
    subscriptions.push(
      await bus.consume("filing.outcomes", outcomeHandlers({ db, logger, wakeRelay: () => relay.wake(), metrics }), {
        prefetch: config.OUTCOMES_PREFETCH,
      }),
    );
    subscriptions.push(await bus.consume("filing.documents", documentsHandlers(documents), { prefetch: config.DOCUMENTS_PREFETCH }));
    closers.push(() => Promise.all(subscriptions.map((s) => s.stop())));

    gate.ready({
      database: async () => void (await db.$queryRaw`SELECT 1`),
      redis: async () => void (await redis.ping()),
      bus: () => bus.readinessCheck(),
    });
    const address = ops?.address();

    return {
      db,
      bus,
      redis,
      relay,
      metrics: registry,
      opsPort: typeof address === "object" && address ? address.port : undefined,
      stop: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
