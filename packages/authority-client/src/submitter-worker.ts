import type { Server } from "node:http";
import { connectBus, type Bus, type ConsumedQueue, type HandlerMap, type RpcHandlerMap, type RpcQueue } from "@dormant/bus";
import { PLATFORM_MESSAGE_CATALOG, SUBMISSION_RPC_CATALOG, type SealingKey, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createMetricsRegistry, type Logger, redisConnection, StartupGate, startOpsServer } from "@dormant/service-kit";
import { Redis } from "ioredis";
import { Counter, type Registry } from "prom-client";
import type { z } from "zod";
import { AuthorityBreaker } from "./authority-breaker.ts";
import { AuthorityLimiter, createAuthorityLimitMetrics, type AuthorityLimitSettings } from "./authority-limits.ts";
import { createBreakerMetrics } from "./breaker-metrics.ts";
import type { BreakerSettings } from "./breaker-settings.ts";
import { CompletionLedger } from "./completion-ledger.ts";
import { SharedBreakerBoard } from "./shared-breakers.ts";
import { SubmissionLedger } from "./submission-ledger.ts";

type Messages = typeof PLATFORM_MESSAGE_CATALOG;
type Rpcs = typeof SUBMISSION_RPC_CATALOG;

/** The bus as a submitter worker uses it: serves its submit queue, consumes its poll queue, publishes outcomes. */
export type SubmitterBus = Bus<Messages, Rpcs>;

/** The settings of a worker's configuration that its start-up reads (both workers' configs have them). */
export interface SubmitterWorkerConfig {
  amqpUrl: string;
  redisUrl: string;
  /** Prefix of every Redis key the worker writes (followed by `<service>:`). */
  redisKeyPrefix: string;
  ops: { port: number; host: string };
  breaker: BreakerSettings;
  /** The limits toward the worker's authority, shared by all replicas (AUTHORITY_MAX_*). */
  limits: AuthorityLimitSettings;
  sealingKeys: readonly SealingKey[];
  pollPrefetch: number;
  submitPrefetch: number;
  submitDedupeTtlSeconds: number;
  completionTtlSeconds: number;
}

/** What the worker's own handlers are built from, once Redis and the bus are up. */
export interface SubmitterWorkerParts<B extends string, Response, Attempt = undefined> {
  /** For the worker's gateway: one breaker per authority endpoint. */
  breakers: Record<B, AuthorityBreaker>;
  /** For the class that answers the submit RPC, besides its gateway and the worker's config. */
  submitting: SubmitterSubmittingParts<Response, Attempt>;
  /** For the class that handles poll commands, besides its gateway. */
  polling: SubmitterPollingParts;
}

/** What a worker's submitter is built from, besides its gateway and config (SubmissionRpc takes the ledger, counter and longest delay). */
export interface SubmitterSubmittingParts<Response, Attempt = undefined> {
  sealingKeys: readonly SealingKey[];
  /** At-most-once submission records, under `<prefix><service>:submit:`. */
  ledger: SubmissionLedger<Response, Attempt>;
  bus: SubmitterBus;
  /** The longest delay the poll queue can hold (its longest wait tier). */
  maxPollDelayMs: number;
  submissions: Counter<"result">;
  logger: Logger;
}

/** What a worker's poller is built from, besides its gateway (PollUntilFinal takes all of it but the bus). */
export interface SubmitterPollingParts {
  /** Published final outcomes, under `<prefix><service>:done:`. */
  completions: CompletionLedger;
  bus: SubmitterBus;
  /** The breakers' timeout. */
  requestTimeoutMs: number;
  /** How long an open breaker fails fast before a trial call. */
  breakerResetTimeoutMs: number;
  /** The longest delay the poll queue can hold (its longest wait tier). */
  maxPollDelayMs: number;
  outcomes: Counter<"outcome" | "code">;
  logger: Logger;
}

export interface SubmitterWorkerHandlers<PollQueue extends string, SubmitQueue extends string> {
  poll: HandlerMap<Messages, PollQueue>;
  submit: RpcHandlerMap<Rpcs, SubmitQueue>;
}

export interface SubmitterWorkerOptions<
  B extends string,
  Response,
  PollQueue extends ConsumedQueue<Messages>,
  SubmitQueue extends RpcQueue<Rpcs>,
  Attempt = undefined,
> {
  /** Names the metrics registry, the bus connection and the worker's Redis keys. */
  service: string;
  /** The authority the worker calls: names its shared limits (`<prefix>authority:<authority>:`). */
  authority: string;
  config: SubmitterWorkerConfig;
  logger: Logger;
  /** One breaker per authority endpoint: key -> breaker name (the `breaker` label of its metrics). */
  breakers: Record<B, string>;
  /**
   * Names of the worker's counters: submit RPCs answered (label `result`) and final outcomes
   * published (labels `outcome`, `code`), and the help of the latter.
   */
  counters: { submissions: string; outcomes: string; outcomesHelp: string };
  /** Schema of the submit RPC's response, which the submission records keep. */
  submitResponse: z.ZodType<Response>;
  /** Schema of what a submit attempt keeps for resolving it if it ends in doubt (none by default). */
  submitAttempt?: z.ZodType<Attempt>;
  pollQueue: PollQueue;
  submitQueue: SubmitQueue;
  /** Builds the worker's gateway, submitter and poller, and answers their handlers. */
  handlers(parts: SubmitterWorkerParts<B, Response, Attempt>): SubmitterWorkerHandlers<PollQueue, SubmitQueue>;
}

export interface SubmitterWorker {
  bus: SubmitterBus;
  metrics: Registry;
  /** The ops server (`/healthz`, `/readyz`, `/metrics`). */
  ops: Server;
  /**
   * Graceful stop: readiness turns 503, consumers stop taking work and the submits and polls in
   * flight finish (their outcomes published), then the bus, Redis, the breakers and the ops
   * server close.
   */
  close(): Promise<void>;
}

/**
 * Starts a submitter worker: its breakers, Redis (submission and completion records), the bus
 * (serves the submit queue with `submitPrefetch`, consumes the poll queue with `pollPrefetch`)
 * and the ops endpoints. A failure on the way closes whatever was opened and rethrows.
 */
export async function startSubmitterWorker<
  B extends string,
  Response,
  PollQueue extends ConsumedQueue<Messages>,
  SubmitQueue extends RpcQueue<Rpcs>,
  Attempt = undefined,
>(options: SubmitterWorkerOptions<B, Response, PollQueue, SubmitQueue, Attempt>): Promise<SubmitterWorker> {
  const { service, config, logger } = options;
  const metrics = createMetricsRegistry(service);
  const breakerMetrics = createBreakerMetrics(metrics);
  const redis = new Redis(config.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", (error: Error) => logger.warn({ err: error }, "redis connection error"));
  // Shared by all replicas: the limits toward the authority and the breakers' state.
  const limiter = new AuthorityLimiter({
    redis,
    keyPrefix: `${config.redisKeyPrefix}authority:${options.authority}:`,
    authority: options.authority,
    settings: config.limits,
    leaseMs: config.breaker.timeoutMs + 5_000,
    metrics: createAuthorityLimitMetrics(metrics),
  });
  const board = new SharedBreakerBoard({ redis, keyPrefix: `${config.redisKeyPrefix}breakers:`, logger });
  const breakers = {} as Record<B, AuthorityBreaker>;
  for (const key of Object.keys(options.breakers) as B[]) {
    breakers[key] = new AuthorityBreaker({
      name: options.breakers[key],
      settings: config.breaker,
      metrics: breakerMetrics,
      logger,
      limiter,
      shared: board,
    });
  }
  const stopBreakers = () => {
    for (const breaker of Object.values<AuthorityBreaker>(breakers)) breaker.shutdown();
  };
  const submissions = new Counter({
    name: options.counters.submissions,
    help: "Submit RPCs answered, by result (acknowledged, duplicate, or the error code)",
    labelNames: ["result"] as const,
    registers: [metrics],
  });
  const outcomes = new Counter({
    name: options.counters.outcomes,
    help: options.counters.outcomesHelp,
    labelNames: ["outcome", "code"] as const,
    registers: [metrics],
  });

  let stopping = false;
  let bus: SubmitterBus | undefined;
  let ops: Server | undefined;
  // The ops endpoints answer first: /readyz is 503 while Redis and RabbitMQ are waited for (each
  // retried with capped backoff for as long as it takes), then runs their checks.
  const gate = new StartupGate(logger);
  try {
    ops = await startOpsServer({
      registry: metrics,
      checks: gate.checks,
      isAcceptingWork: () => !stopping,
      port: config.ops.port,
      host: config.ops.host,
      logger,
    });
    await gate.connect("redis", redisConnection(redis));
    await board.start();
    bus = await connectBus({
      startup: gate,
      url: config.amqpUrl,
      service,
      topology: PLATFORM_TOPOLOGY,
      messages: PLATFORM_MESSAGE_CATALOG,
      rpc: SUBMISSION_RPC_CATALOG,
      logger,
      metrics,
    });
    const keyPrefix = `${config.redisKeyPrefix}${service}:`;
    const maxPollDelayMs = longestWaitTierMs(options.pollQueue);
    const handlers = options.handlers({
      breakers,
      submitting: {
        sealingKeys: config.sealingKeys,
        ledger: new SubmissionLedger<Response, Attempt>({
          redis,
          keyPrefix: `${keyPrefix}submit:`,
          ttlSeconds: config.submitDedupeTtlSeconds,
          response: options.submitResponse,
          ...(options.submitAttempt ? { attempt: options.submitAttempt } : {}),
        }),
        bus,
        maxPollDelayMs,
        submissions,
        logger,
      },
      polling: {
        completions: new CompletionLedger({ redis, keyPrefix: `${keyPrefix}done:`, ttlSeconds: config.completionTtlSeconds }),
        bus,
        requestTimeoutMs: config.breaker.timeoutMs,
        breakerResetTimeoutMs: config.breaker.resetTimeoutMs,
        maxPollDelayMs,
        outcomes,
        logger,
      },
    });
    await bus.consume(options.pollQueue, handlers.poll, { prefetch: config.pollPrefetch });
    await bus.rpcServe(options.submitQueue, handlers.submit, { prefetch: config.submitPrefetch });
    const connectedBus = bus;
    gate.ready({ bus: () => connectedBus.readinessCheck(), redis: async () => void (await redis.ping()) });
    const opsServer = ops;
    return {
      bus: connectedBus,
      metrics,
      ops: opsServer,
      async close() {
        stopping = true;
        await connectedBus.close();
        await board.close();
        await redis.quit().catch(() => redis.disconnect());
        stopBreakers();
        await new Promise<void>((resolve) => opsServer.close(() => resolve()));
      },
    };
  } catch (error) {
    await bus?.close().catch(() => undefined);
    await board.close().catch(() => undefined);
    redis.disconnect();
    stopBreakers();
    const opened = ops;
    if (opened) await new Promise<void>((resolve) => opened.close(() => resolve()));
    throw error;
  }
}

/** The longest delay a command can be scheduled with on `queue` (its longest wait tier). */
function longestWaitTierMs(queue: string): number {
  const longest = PLATFORM_TOPOLOGY.workQueues.find((workQueue) => workQueue.name === queue)?.waitTiersMs.at(-1);
  if (longest === undefined) throw new Error(`the topology has no wait tiers for ${queue}`);
  return longest;
}
