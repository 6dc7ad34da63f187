import type { WebhookEndpointsList } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createDelayedTcpProxy, createTestRedisPrefix, type DelayedTcpProxy, type TestRedis, waitFor } from "@dormant/testing";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import type { NotifierRpcBus } from "../webhooks/webhook-backend.ts";
import { createTestEndpointLookup, type TestEndpointLookup } from "./test-endpoints.ts";

/**
 * The in-process layer of the lookup against a real Redis whose subscriber connection goes
 * through a proxy that is down, then up, then cut: the cache must turn on whenever the
 * subscription is confirmed (also when the first SUBSCRIBE failed), and off while it is lost.
 * The notifier's answer is fixed here ("no endpoints"); what is observed is whether a Redis key
 * changed behind the lookup's back is read again (no local cache) or not (local cache on).
 */
const logger = createLogger({ service: "test-endpoints-test", level: "silent" });
const NO_ENDPOINTS: WebhookEndpointsList = { endpoints: [], pagination: { total: 0, limit: 1, offset: 0, has_more: false } };
const noEndpoints = { rpcCall: async () => NO_ENDPOINTS } as unknown as NotifierRpcBus;

const opened: { redis: Redis[]; proxies: DelayedTcpProxy[]; scopes: TestRedis[] } = { redis: [], proxies: [], scopes: [] };
afterEach(async () => {
  for (const connection of opened.redis.splice(0)) connection.disconnect();
  for (const proxy of opened.proxies.splice(0)) await proxy.close();
  for (const scope of opened.scopes.splice(0)) await scope.cleanup();
});

async function setUp(): Promise<{
  redis: Redis;
  proxy: DelayedTcpProxy;
  lookup: TestEndpointLookup;
  prefix: string;
  key: (account: string) => string;
}> {
  const scope = createTestRedisPrefix("test_endpoints");
  opened.scopes.push(scope);
  const redis = new Redis(scope.url, { maxRetriesPerRequest: 1 });
  opened.redis.push(redis);
  const target = new URL(scope.url);
  const proxy = await createDelayedTcpProxy({ port: Number(target.port || 6379) });
  opened.proxies.push(proxy);
  // As the gateway's: no offline queue, so a SUBSCRIBE while disconnected fails at once.
  const subscriber = new Redis(proxy.url(scope.url), { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  subscriber.on("error", () => undefined);
  opened.redis.push(subscriber);
  const lookup = createTestEndpointLookup({ redis, subscriber, bus: noEndpoints, keyPrefix: scope.prefix, logger, localTtlMs: 60_000 });
  return { redis, proxy, lookup, prefix: scope.prefix, key: (account) => `${scope.prefix}sandbox:test-endpoints:${account}` };
}

/** True when the lookup answered from its process cache: it ignores a Redis key changed behind its back. */
async function answersFromMemory(setup: Awaited<ReturnType<typeof setUp>>, account: string): Promise<boolean> {
  await setup.redis.set(setup.key(account), "0", "EX", 60);
  expect(await setup.lookup.mayHaveTestEndpoints(account)).toBe(false);
  await setup.redis.set(setup.key(account), "1", "EX", 60);
  return (await setup.lookup.mayHaveTestEndpoints(account)) === false;
}

describe("createTestEndpointLookup's subscription", () => {
  it("reads Redis while the subscriber cannot connect, and caches in memory once it subscribed later", async () => {
    const setup = await setUp();
    expect(await answersFromMemory(setup, "acc_before")).toBe(false);

    await setup.proxy.open();
    await waitFor(async () => answersFromMemory(setup, `acc_${Date.now()}`), { timeoutMs: 5_000, intervalMs: 50 });
  });

  it("turns the cache off when the subscription is cut and on again once it is back", async () => {
    const setup = await setUp();
    await setup.proxy.open();
    await waitFor(async () => answersFromMemory(setup, `acc_${Date.now()}`), { timeoutMs: 5_000, intervalMs: 50 });

    await setup.proxy.close();
    await waitFor(async () => !(await answersFromMemory(setup, `acc_${Date.now()}`)), { timeoutMs: 5_000, intervalMs: 50 });

    await setup.proxy.open();
    await waitFor(async () => answersFromMemory(setup, `acc_${Date.now()}`), { timeoutMs: 5_000, intervalMs: 50 });
  });

  it("drops a cached answer when another replica records a creation", async () => {
    const setup = await setUp();
    await setup.proxy.open();
    await waitFor(async () => answersFromMemory(setup, `acc_${Date.now()}`), { timeoutMs: 5_000, intervalMs: 50 });
    const other = createTestEndpointLookup({ redis: setup.redis, bus: noEndpoints, keyPrefix: setup.prefix, logger });

    await setup.redis.set(setup.key("acc_created"), "0", "EX", 60);
    expect(await setup.lookup.mayHaveTestEndpoints("acc_created")).toBe(false);
    await other.testEndpointCreated("acc_created");
    await waitFor(async () => setup.lookup.mayHaveTestEndpoints("acc_created"), { timeoutMs: 2_000, intervalMs: 20 });
  });
});
