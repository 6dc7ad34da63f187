import type { Server } from "node:http";
import { AuthorityBreaker, CompletionLedger, createBreakerMetrics, SubmissionLedger } from "@dormant/authority-client";
import { connectBus } from "@dormant/bus";
import {
  PLATFORM_MESSAGE_CATALOG,
  REGISTRY_POLL_QUEUE,
  REGISTRY_SUBMIT_QUEUE,
  SUBMISSION_RPC_CATALOG,
  SubmitRegistryAccountsResponse,
} from "@dormant/contracts";
import { createMetricsRegistry, startOpsServer, type Logger } from "@dormant/service-kit";
import { Redis } from "ioredis";
import { Counter, type Registry } from "prom-client";
import type { RegistrySubmitterConfig } from "./env.ts";
import { StatusPoller } from "./poll-status.ts";
import { longestPollDelayMs, type RegistryBus } from "./registry-bus.ts";
import { RegistryGateway } from "./registry-gateway.ts";
import { AccountsSubmitter } from "./submit-accounts.ts";

export const SERVICE = "registry-submitter";

export interface RegistrySubmitter {
  bus: RegistryBus;
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
 * Starts the worker: Redis (submission and completion records), the bus (serves
 * `registry.submit`, consumes `registry.poll`), a breaker per message class, and the ops endpoints.
 */
export async function startRegistrySubmitter(config: RegistrySubmitterConfig, logger: Logger): Promise<RegistrySubmitter> {
  const metrics = createMetricsRegistry(SERVICE);
  const breakerMetrics = createBreakerMetrics(metrics);
  const breakers = {
    submission: new AuthorityBreaker({ name: "registry-submission", settings: config.breaker, metrics: breakerMetrics, logger }),
    status: new AuthorityBreaker({ name: "registry-status", settings: config.breaker, metrics: breakerMetrics, logger }),
  };
  const gateway = new RegistryGateway({
    gatewayUrl: config.registry.gatewayUrl,
    gatewayTest: config.registry.gatewayTest,
    presenter: config.registry.presenter,
    breakers,
  });
  const submissions = new Counter({
    name: "registry_submissions_total",
    help: "Submit RPCs answered, by result (acknowledged, duplicate, or the error code)",
    labelNames: ["result"] as const,
    registers: [metrics],
  });
  const outcomes = new Counter({
    name: "registry_outcomes_total",
    help: "Final accounts outcomes published, by outcome and filing error code",
    labelNames: ["outcome", "code"] as const,
    registers: [metrics],
  });

  const redis = new Redis(config.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on("error", (error: Error) => logger.warn({ err: error }, "redis connection error"));
  let stopping = false;
  let bus: RegistryBus | undefined;
  const stopBreakers = () => {
    breakers.submission.shutdown();
    breakers.status.shutdown();
  };
  try {
    await redis.connect();
    bus = await connectBus({ url: config.amqpUrl, service: SERVICE, messages: PLATFORM_MESSAGE_CATALOG, rpc: SUBMISSION_RPC_CATALOG, logger, metrics });
    const keyPrefix = `${config.redisKeyPrefix}${SERVICE}:`;
    const maxPollDelayMs = longestPollDelayMs();
    const submitter = new AccountsSubmitter({
      config,
      sealingKeys: config.sealingKeys,
      gateway,
      ledger: new SubmissionLedger({ redis, keyPrefix: `${keyPrefix}submit:`, ttlSeconds: config.submitDedupeTtlSeconds, response: SubmitRegistryAccountsResponse }),
      bus,
      maxPollDelayMs,
      submissions,
      logger,
    });
    const poller = new StatusPoller({
      gateway,
      completions: new CompletionLedger({ redis, keyPrefix: `${keyPrefix}done:`, ttlSeconds: config.completionTtlSeconds }),
      bus,
      requestTimeoutMs: config.breaker.timeoutMs,
      maxPollDelayMs,
      outcomes,
      logger,
    });
    await bus.consume(REGISTRY_POLL_QUEUE, { "registry.poll_status": (message, context) => poller.poll(message.payload, context) }, { prefetch: config.pollPrefetch });
    await bus.rpcServe(REGISTRY_SUBMIT_QUEUE, { "registry.submit_accounts": (request, context) => submitter.submit(request, context) }, { prefetch: config.submitPrefetch });
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
        stopBreakers();
        await new Promise<void>((resolve) => ops.close(() => resolve()));
      },
    };
  } catch (error) {
    await bus?.close().catch(() => undefined);
    redis.disconnect();
    stopBreakers();
    throw error;
  }
}
