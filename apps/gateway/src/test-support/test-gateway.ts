import { type Bus, connectBus } from "@dormant/bus";
import { DEVELOPMENT_SEALING_KEY, sealingKeyFromBase64, PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { createLogger, createMetricsRegistry, type Logger } from "@dormant/service-kit";
import { createTestRedisPrefix } from "@dormant/testing";
import type { Express } from "express";
import { Redis } from "ioredis";
import { inject } from "vitest";
import { type CreatedAccount, createAccount, type CreateAccountInput } from "../admin/accounts.ts";
import { createApp, type GatewaySettings } from "../app.ts";
import { createGatewayDb, type GatewayDb } from "../db/client.ts";
import { GATEWAY_MESSAGE_CATALOG, GATEWAY_BUS_RPC_CATALOG } from "../infrastructure.ts";
import { createGatewayTestDatabase } from "./test-database.ts";
import { createSecretHasher } from "../keys/hash.ts";
import { issueApiKey } from "../keys/issue.ts";

export const TEST_PEPPER = "gateway-test-pepper-0123456789abcdefghijklmnop";

/** Limits no test reaches by accident; tests of the limits pass their own. */
const GENEROUS_LIMITS = { rateLimitPerMinute: 10_000, rateLimitPerDay: 100_000 };

export interface TestGatewayOptions {
  /** Names the database and Redis prefix. */
  label: string;
  /** Where the bus connects; defaults to the run's shared vhost (nothing serves filing.rpc there). */
  amqpUrl?: string;
  logger?: Logger;
  settings?: Partial<GatewaySettings>;
  /** Limits of the first account's keys (generous by default). */
  limits?: { rateLimitPerMinute: number; rateLimitPerDay: number };
}

export interface TestGateway {
  app: Express;
  /** The first account: a live and a test key. */
  account: CreatedAccount;
  /** Another account with its own keys (for isolation tests). */
  createAccount(input?: Partial<CreateAccountInput>): Promise<CreatedAccount>;
  /** Another key of an account, in a mode (the full key). */
  issueKey(accountId: string, mode: "live" | "test"): Promise<string>;
  db: GatewayDb;
  redis: Redis;
  bus: Bus<typeof GATEWAY_MESSAGE_CATALOG, typeof GATEWAY_BUS_RPC_CATALOG>;
  redisPrefix: string;
  /**
   * Another gateway replica on the same database, Redis prefix and bus (its own Redis subscriber),
   * with these settings changed (e.g. a smaller validation limit, for one test).
   */
  replica(overrides?: Partial<GatewaySettings>): Promise<Express>;
  close(): Promise<void>;
}

/**
 * The gateway app as production wires it, on real infrastructure of its own: a migrated
 * database clone, a Redis prefix, RabbitMQ (the run's shared vhost unless told otherwise), and an
 * account with one live and one test key. Close it in afterAll.
 */
export async function createTestGateway(options: TestGatewayOptions): Promise<TestGateway> {
  const database = await createGatewayTestDatabase(options.label);
  const redisScope = createTestRedisPrefix(options.label);
  const db = createGatewayDb(database.url);
  const redis = new Redis(redisScope.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  await redis.connect();
  const logger = options.logger ?? createLogger({ service: "gateway-test", level: "silent" });
  const metrics = createMetricsRegistry("gateway");
  const bus = await connectBus({
    url: options.amqpUrl ?? inject("gatewayAmqpUrl"),
    service: "gateway-test",
    topology: PLATFORM_TOPOLOGY,
    messages: GATEWAY_MESSAGE_CATALOG,
    rpc: GATEWAY_BUS_RPC_CATALOG,
    logger,
    metrics,
    reconnect: { initialMaxRetries: 1 },
  });
  const settings: GatewaySettings = {
    bodyLimitBytes: 32_768,
    apiKeyPepper: TEST_PEPPER,
    sealingKey: sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64),
    redisKeyPrefix: redisScope.prefix,
    apiKeyCacheTtlMs: 5_000,
    defaultRateLimits: { perMinute: 60, perDay: 1000 },
    trustProxyHops: 0,
    ...options.settings,
  };
  const subscribers: Redis[] = [];
  const subscriber = async () => {
    const connection = redis.duplicate();
    subscribers.push(connection);
    await connection.connect();
    return connection;
  };
  const app = createApp({ settings, logger, db, redis, redisSubscriber: await subscriber(), bus, metrics });
  const hasher = createSecretHasher(settings.apiKeyPepper);
  const newAccount = (input: Partial<CreateAccountInput> = {}) =>
    createAccount(db, { name: "Test Agency Ltd", openingBalancePence: 10_000n, ...GENEROUS_LIMITS, ...input }, { hasher });
  const account = await newAccount(options.limits ?? {});
  return {
    app,
    account,
    createAccount: newAccount,
    issueKey: async (accountId, mode) => (await issueApiKey(db, { accountId, mode }, hasher)).apiKey,
    db,
    redis,
    bus,
    redisPrefix: redisScope.prefix,
    replica: async (overrides = {}) =>
      createApp({
        settings: { ...settings, ...overrides },
        logger,
        db,
        redis,
        redisSubscriber: await subscriber(),
        bus,
        metrics: createMetricsRegistry("gateway"),
      }),
    async close() {
      for (const connection of subscribers) connection.disconnect();
      await bus.close();
      await redisScope.cleanup();
      redis.disconnect();
      await db.$disconnect();
      await database.drop();
    },
  };
}
