import { type Bus, connectBus } from "@dormant/bus";
import { BILLING_RPC_CATALOG, FILING_RPC_CATALOG, GATEWAY_RPC_CATALOG, NOTIFIER_RPC_CATALOG, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createMetricsRegistry, type DependencyWaits, type Logger, redisConnection } from "@dormant/service-kit";
import { Redis } from "ioredis";
import type { GatewayAppDeps, GatewaySettings } from "./app.ts";
import { createGatewayDb } from "./db/client.ts";
import { SANDBOX_EVENT_MESSAGES } from "./sandbox/sandbox-events.ts";
import type { GatewayConfig } from "./env.ts";

/**
 * The RPCs the gateway calls: the filing service (filings, documents), billing (balances, opening
 * an account) and the notifier (webhook endpoints).
 */
export const GATEWAY_CALLS_RPC_CATALOG = { ...FILING_RPC_CATALOG, ...BILLING_RPC_CATALOG, ...NOTIFIER_RPC_CATALOG };

/** Every RPC on the gateway's bus: those it calls, and its own `gateway.rpc` (accounts and keys) that it serves. */
export const GATEWAY_BUS_RPC_CATALOG = { ...GATEWAY_CALLS_RPC_CATALOG, ...GATEWAY_RPC_CATALOG };

/** The messages the gateway publishes: a test key's sandbox outcome events, for the notifier. */
export const GATEWAY_MESSAGE_CATALOG = { ...SANDBOX_EVENT_MESSAGES };

/** The settings createApp takes, from the parsed configuration. */
export function gatewaySettings(config: GatewayConfig): GatewaySettings {
  return {
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    apiKeyPepper: config.apiKeyPepper,
    sealingKey: config.sealingKey,
    redisKeyPrefix: config.REDIS_KEY_PREFIX,
    apiKeyCacheTtlMs: config.API_KEY_CACHE_TTL_MS,
    defaultRateLimits: { perMinute: config.RATE_LIMIT_PER_MINUTE, perDay: config.RATE_LIMIT_PER_DAY },
    validationLimits: { perMinute: config.VALIDATION_RATE_PER_MINUTE, perDay: config.VALIDATION_RATE_PER_DAY },
    trustProxyHops: config.TRUST_PROXY_HOPS,
    mcpClientAddressSecret: config.MCP_CLIENT_ADDRESS_SECRET,
    authLookupQueueLimit: config.AUTH_LOOKUP_QUEUE_LIMIT,
    filingRpcSubmitTimeoutMs: config.FILING_RPC_SUBMIT_TIMEOUT_MS,
    filingRpcReadTimeoutMs: config.FILING_RPC_READ_TIMEOUT_MS,
    idempotencyClaimTtlMs: config.IDEMPOTENCY_CLAIM_TTL_MS,
  };
}

export interface GatewayResources extends Omit<GatewayAppDeps, "isAcceptingWork" | "bus"> {
  bus: Bus<typeof GATEWAY_MESSAGE_CATALOG, typeof GATEWAY_BUS_RPC_CATALOG>;
  /** Closes the bus, Redis and the database, in that order. */
  close(): Promise<void>;
}

/**
 * Connects what the gateway needs: Postgres (API keys), Redis (limits, idempotency) and RabbitMQ
 * (filing, billing and notifier RPC; sandbox webhook events; gateway.rpc, served by main.ts). Redis fails fast when it is down (no offline queue), so requests get a 503
 * instead of hanging. With a start-up gate (main.ts) each connection is retried until it succeeds;
 * without one the first failure throws.
 */
export async function openGatewayResources(config: GatewayConfig, logger: Logger, startup?: DependencyWaits): Promise<GatewayResources> {
  const metrics = createMetricsRegistry("gateway");
  const db = createGatewayDb(config.GATEWAY_DATABASE_URL);
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
  });
  redis.on("error", (error: Error) => logger.warn({ err: error }, "redis connection error"));
  const connectRedis = redisConnection(redis);
  // SUBSCRIBE needs a connection of its own (sandbox/test-endpoints.ts); without it the sandbox
  // still works, reading Redis on every lookup.
  const redisSubscriber = redis.duplicate();
  redisSubscriber.on("error", (error: Error) => logger.warn({ err: error }, "redis subscriber connection error"));
  const connect = <T>(dependency: string, attempt: () => Promise<T>) => (startup ? startup.connect(dependency, attempt) : attempt());
  try {
    await connect("postgres", async () => void (await db.$queryRaw`SELECT 1`));
    await connect("redis", connectRedis);
    await redisConnection(redisSubscriber)().catch((error: unknown) =>
      logger.warn({ err: error }, "the redis subscriber did not connect; it keeps retrying"),
    );
    const bus = await connectBus({
      ...(startup ? { startup } : {}),
      url: config.AMQP_URL,
      service: "gateway",
      topology: PLATFORM_TOPOLOGY,
      messages: GATEWAY_MESSAGE_CATALOG,
      rpc: GATEWAY_BUS_RPC_CATALOG,
      logger,
      metrics,
    });
    return {
      settings: gatewaySettings(config),
      logger,
      db,
      redis,
      redisSubscriber,
      bus,
      metrics,
      async close() {
        await bus.close().catch((error: unknown) => logger.warn({ err: error }, "closing the bus failed"));
        await redisSubscriber.quit().catch(() => redisSubscriber.disconnect());
        await redis.quit().catch(() => redis.disconnect());
        await db.$disconnect();
      },
    };
  } catch (error) {
    redisSubscriber.disconnect();
    redis.disconnect();
    await db.$disconnect();
    throw error;
  }
}
