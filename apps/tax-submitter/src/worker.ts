import type { Server } from "node:http";
import { AuthorityBreaker, CompletionLedger, createBreakerMetrics, SubmissionLedger } from "@dormant/authority-client";
import { connectBus } from "@dormant/bus";
import {
  PLATFORM_MESSAGE_CATALOG,
  SUBMISSION_RPC_CATALOG,
  SubmitTaxPartResponse,
  TAX_POLL_QUEUE,
  TAX_SUBMIT_QUEUE,
} from "@dormant/contracts";
import { createMetricsRegistry, startOpsServer, type Logger } from "@dormant/service-kit";
import { Redis } from "ioredis";
import { Counter, type Registry } from "prom-client";
import type { TaxSubmitterConfig } from "./env.ts";
import { PartPoller } from "./poll-part.ts";
import { PartSubmitter } from "./submit-part.ts";
import { longestPollDelayMs, type TaxBus } from "./tax-bus.ts";
import { TaxGateway } from "./tax-gateway.ts";

export const SERVICE = "tax-submitter";

export interface TaxSubmitter {
  bus: TaxBus;
  metrics: Registry;
  /** The ops server (`/healthz`, `/readyz`, `/metrics`). */
  ops: Server;
  /**
   * Graceful stop: readiness turns 503, consumers stop taking work and the submits and polls in
   * flight finish (their outcomes published), then the bus, Redis and the ops server close.
   */
  close(): Promise<void>;
}

/**
 * Starts the worker: Redis (submission and completion records), the bus (serves `tax.submit`,
 * consumes `tax.poll`), one breaker per authority endpoint, and the ops endpoints.
 */
export async function startTaxSubmitter(config: TaxSubmitterConfig, logger: Logger): Promise<TaxSubmitter> {
  const metrics = createMetricsRegistry(SERVICE);
  const breakerMetrics = createBreakerMetrics(metrics);
  const breakers = {
    submission: new AuthorityBreaker({ name: "tax-submission", settings: config.breaker, metrics: breakerMetrics, logger }),
    poll: new AuthorityBreaker({ name: "tax-poll", settings: config.breaker, metrics: breakerMetrics, logger }),
  };
  const gateway = new TaxGateway({ submissionUrl: config.tax.submissionUrl, pollUrl: config.tax.pollUrl, gatewayTest: config.tax.gatewayTest, breakers });
  const submissions = new Counter({
    name: "tax_submissions_total",
    help: "Submit RPCs answered, by result (acknowledged, duplicate, or the error code)",
    labelNames: ["result"] as const,
    registers: [metrics],
  });
  const outcomes = new Counter({
    name: "tax_part_outcomes_total",
    help: "Final part outcomes published, by outcome and filing error code",
    labelNames: ["outcome", "code"] as const,
    registers: [metrics],
  });

  const redis = new Redis(config.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", (error: Error) => logger.warn({ err: error }, "redis connection error"));
  let stopping = false;
  let bus: TaxBus | undefined;
  try {
    await redis.connect();
    bus = await connectBus({
      url: config.amqpUrl,
      service: SERVICE,
      messages: PLATFORM_MESSAGE_CATALOG,
      rpc: SUBMISSION_RPC_CATALOG,
      logger,
      metrics,
    });
    const keyPrefix = `${config.redisKeyPrefix}${SERVICE}:`;
    const maxPollDelayMs = longestPollDelayMs();
    const submitter = new PartSubmitter({
      config,
      sealingKeys: config.sealingKeys,
      gateway,
      ledger: new SubmissionLedger({ redis, keyPrefix: `${keyPrefix}submit:`, ttlSeconds: config.submitDedupeTtlSeconds, response: SubmitTaxPartResponse }),
      bus,
      maxPollDelayMs,
      submissions,
      logger,
    });
    const poller = new PartPoller({
      gateway,
      completions: new CompletionLedger({ redis, keyPrefix: `${keyPrefix}done:`, ttlSeconds: config.completionTtlSeconds }),
      bus,
      requestTimeoutMs: config.breaker.timeoutMs,
      maxPollDelayMs,
      outcomes,
      logger,
    });
    await bus.consume(TAX_POLL_QUEUE, { "tax.poll_part": (message, context) => poller.poll(message.payload, context) }, { prefetch: config.pollPrefetch });
    await bus.rpcServe(TAX_SUBMIT_QUEUE, { "tax.submit_part": (request, context) => submitter.submit(request, context) }, { prefetch: config.submitPrefetch });
    const connectedBus = bus;
    const ops = await startOpsServer({
      registry: metrics,
      checks: { bus: () => connectedBus.readinessCheck(), redis: async () => void (await redis.ping()) },
      isAcceptingWork: () => !stopping,
      port: config.ops.port,
      host: config.ops.host,
      logger,
    });
    return {
      bus: connectedBus,
      metrics,
      ops,
      async close() {
        stopping = true;
        await connectedBus.close();
        await redis.quit().catch(() => redis.disconnect());
        breakers.submission.shutdown();
        breakers.poll.shutdown();
        await new Promise<void>((resolve) => ops.close(() => resolve()));
      },
    };
  } catch (error) {
    await bus?.close().catch(() => undefined);
    redis.disconnect();
    breakers.submission.shutdown();
    breakers.poll.shutdown();
    throw error;
  }
}
