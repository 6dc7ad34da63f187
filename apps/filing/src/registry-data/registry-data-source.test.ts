import { CompanyNotFoundError, createRegistryDataClient, RegistryUnavailableError } from "@dormant/company-data";
import { createLogger } from "@dormant/service-kit";
import { createTestRedisPrefix } from "@dormant/testing";
import { startTestSim, testConfig, type SimServer } from "@dormant/authority-sim/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryDataSource, type RegistryDataSourceOptions } from "./registry-data-source.ts";

const logger = createLogger({ service: "filing-test" });
const testRedis = createTestRedisPrefix("filing-registry");
let redis: Redis;
let sim: SimServer;

beforeAll(async () => {
  redis = new Redis(testRedis.url, { maxRetriesPerRequest: 1 });
  sim = await startTestSim();
});
afterAll(async () => {
  await sim?.close();
  await testRedis.cleanup();
  redis?.disconnect();
});

function source(server: SimServer, overrides: Partial<RegistryDataSourceOptions> = {}) {
  const client = createRegistryDataClient({ baseUrl: server.urls.registryData, apiKey: "sim-registry-data-key", timeoutMs: 2000 });
  return createRegistryDataSource({
    client,
    redis,
    keyPrefix: testRedis.prefix,
    ttlSeconds: 600,
    notFoundTtlSeconds: 60,
    logger,
    ...overrides,
  });
}

/** How many profile requests the simulator's data API received for a company. */
function profileRequests(server: SimServer, company: string): number {
  return server.context.received.list({ target: "registry-data", company, kind: "profile" }).length;
}

describe("registry data source", () => {
  it("answers a burst for one company, across replicas, with one registry fetch, then from the cache", async () => {
    const replicaA = source(sim);
    const replicaB = source(sim);
    const lookups = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? replicaA : replicaB).getCompany("00000001"));
    const records = await Promise.all(lookups);
    expect(new Set(records.map((r) => r.profile.company_name))).toEqual(new Set(["LOVELACE ENGINES LIMITED"]));
    expect(records[0]!.officers.items.length).toBeGreaterThan(0);
    expect(records[0]!.filingHistory.items.length).toBeGreaterThan(0);
    expect(profileRequests(sim, "00000001")).toBe(1);

    const again = await source(sim).getCompany("00000001");
    expect(again).toEqual(records[0]);
    expect(profileRequests(sim, "00000001")).toBe(1);
  });

  it("remembers an unknown company for a while", async () => {
    const registry = source(sim);
    await expect(registry.getCompany("99999999")).rejects.toBeInstanceOf(CompanyNotFoundError);
    await expect(registry.getCompany("99999999")).rejects.toBeInstanceOf(CompanyNotFoundError);
    expect(profileRequests(sim, "99999999")).toBe(1);
  });

  it("stops asking every replica after the registry's 429, saying how long to wait", async () => {
    const limited = await startTestSim({ registryData: { ...testConfig().registryData, rateLimitPer5Min: 3 } });
    const prefix = createTestRedisPrefix("filing-registry-limit");
    try {
      const registry = () => source(limited, { keyPrefix: prefix.prefix, rateLimitedSeconds: 42 });
      await registry().getCompany("12345678"); // three requests: the whole budget
      const refused = await registry()
        .getCompany("23456789")
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RegistryUnavailableError);
      expect(refused).toMatchObject({ reason: "rate-limited" });
      const before = limited.context.received.list({ target: "registry-data" }).length;
      const cooled = await registry()
        .getCompany("34567890")
        .catch((e: unknown) => e);
      expect(cooled).toMatchObject({ reason: "rate-limited" });
      expect((cooled as RegistryUnavailableError).retryAfterSeconds).toBeGreaterThan(30);
      expect((cooled as RegistryUnavailableError).retryAfterSeconds).toBeLessThanOrEqual(42);
      expect(limited.context.received.list({ target: "registry-data" }).length).toBe(before);
      // Cached companies are still served during the cool-down.
      await expect(registry().getCompany("12345678")).resolves.toMatchObject({ profile: { company_number: "12345678" } });
    } finally {
      await prefix.cleanup();
      await limited.close();
    }
  });

  it("reports the registry being down as unavailable", async () => {
    const down = await startTestSim();
    try {
      await fetch(`${down.urls.control}/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ target: "registry-data", down: true }),
      });
      const error = await source(down)
        .getCompany("45678901")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RegistryUnavailableError);
      expect((error as RegistryUnavailableError).retryable).toBe(true);
    } finally {
      await down.close();
    }
  });

  it("asks the registry directly when Redis is down", async () => {
    const deadRedis = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    deadRedis.on("error", () => undefined);
    try {
      const client = createRegistryDataClient({ baseUrl: sim.urls.registryData, apiKey: "sim-registry-data-key", timeoutMs: 2000 });
      const registry = createRegistryDataSource({
        client,
        redis: deadRedis,
        keyPrefix: "x:",
        ttlSeconds: 600,
        notFoundTtlSeconds: 60,
        logger,
      });
      await expect(registry.getCompany("SC000001")).resolves.toMatchObject({ profile: { company_name: "MAXWELL FIELDS LIMITED" } });
    } finally {
      deadRedis.disconnect();
    }
  });
});
