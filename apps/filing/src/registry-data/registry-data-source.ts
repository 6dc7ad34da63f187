import { randomUUID } from "node:crypto";
import {
  CompanyNotFoundError,
  companyProfileSchema,
  filingHistorySchema,
  officerListSchema,
  RegistryUnavailableError,
  type CompanyProfile,
  type FilingHistory,
  type OfficerList,
  type RegistryDataClient,
} from "@dormant/company-data";
import type { Logger } from "@dormant/service-kit";
import type { Redis } from "ioredis";
import { z } from "zod";

/** What a filing needs from the registry about one company. */
export interface RegistryCompanyRecord {
  profile: CompanyProfile;
  officers: OfficerList;
  filingHistory: FilingHistory;
}

export interface RegistryDataSource {
  /** The company's record; throws CompanyNotFoundError or RegistryUnavailableError. */
  getCompany(companyNumber: string): Promise<RegistryCompanyRecord>;
}

export interface RegistryDataSourceOptions {
  client: RegistryDataClient;
  redis: Redis;
  /** The service's Redis prefix; keys go under `<prefix>filing:registry:`. */
  keyPrefix: string;
  ttlSeconds: number;
  notFoundTtlSeconds: number;
  /** How long one replica may hold a company's fetch before others fetch too (default 10 s). */
  lockMs?: number;
  /** Cool-down after a 429 without Retry-After (default 60 s). */
  rateLimitedSeconds?: number;
  logger: Logger;
  /** Counts cache hits, misses (registry fetches) and requests joined to a fetch in flight. */
  onLookup?: (result: "hit" | "miss" | "joined") => void;
}

const CachedEntry = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("company"), profile: companyProfileSchema, officers: officerListSchema, filingHistory: filingHistorySchema }),
  z.object({ kind: z.literal("not_found") }),
]);
type CachedEntry = z.infer<typeof CachedEntry>;

const RELEASE_LOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const WAIT_STEP_MS = 50;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The registry public data API behind a Redis cache, for the 600 requests / 5 minutes the
 * registry allows per key:
 * - a company's profile, officers and accounts filing history are cached together for
 *   `ttlSeconds`; "unknown company" for `notFoundTtlSeconds`;
 * - single flight: concurrent lookups of one company in this process share one fetch, and across
 *   replicas a short Redis lock lets one fetch while the others wait for the cache to fill;
 * - after a 429 every replica stops asking for the Retry-After period (a shared cool-down key)
 *   and answers RegistryUnavailableError (rate-limited) with the time left;
 * - Redis failing never fails a lookup: it is logged and the registry is asked directly.
 */
export function createRegistryDataSource(options: RegistryDataSourceOptions): RegistryDataSource {
  const { client, redis, logger } = options;
  const base = `${options.keyPrefix}filing:registry:`;
  const entryKey = (number: string) => `${base}v1:${number}`;
  const lockKey = (number: string) => `${base}lock:${number}`;
  const cooldownKey = `${base}cooldown`;
  const lockMs = options.lockMs ?? 10_000;
  const rateLimitedSeconds = options.rateLimitedSeconds ?? 60;
  const inFlight = new Map<string, Promise<RegistryCompanyRecord>>();

  async function quietly<T>(what: string, action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      logger.warn({ err: error, what }, "registry cache unavailable; asking the registry directly");
      return undefined;
    }
  }

  async function readEntry(number: string): Promise<CachedEntry | undefined> {
    const text = await quietly("read", () => redis.get(entryKey(number)));
    if (!text) return undefined;
    try {
      const parsed = CachedEntry.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  function fromEntry(number: string, entry: CachedEntry): RegistryCompanyRecord {
    if (entry.kind === "not_found") throw new CompanyNotFoundError(number);
    return { profile: entry.profile, officers: entry.officers, filingHistory: entry.filingHistory };
  }

  async function writeEntry(number: string, entry: CachedEntry, ttlSeconds: number): Promise<void> {
    await quietly("write", () => redis.set(entryKey(number), JSON.stringify(entry), "EX", ttlSeconds));
  }

  async function coolingDown(): Promise<void> {
    const ttlMs = await quietly("cool-down", () => redis.pttl(cooldownKey));
    if (ttlMs !== undefined && ttlMs > 0) {
      throw new RegistryUnavailableError({
        reason: "rate-limited",
        message: "the registry's request limit was reached; waiting for its Retry-After",
        retryAfterSeconds: Math.ceil(ttlMs / 1000),
      });
    }
  }

  async function fetchFromRegistry(number: string): Promise<RegistryCompanyRecord> {
    try {
      const [profile, officers, filingHistory] = await Promise.all([
        client.getCompany(number),
        client.getOfficers(number),
        client.getFilingHistory(number, { category: "accounts" }),
      ]);
      await writeEntry(number, { kind: "company", profile, officers, filingHistory }, options.ttlSeconds);
      return { profile, officers, filingHistory };
    } catch (error) {
      if (error instanceof CompanyNotFoundError) {
        await writeEntry(number, { kind: "not_found" }, options.notFoundTtlSeconds);
      } else if (error instanceof RegistryUnavailableError && error.reason === "rate-limited") {
        const seconds = error.retryAfterSeconds ?? rateLimitedSeconds;
        await quietly("cool-down", () => redis.set(cooldownKey, "1", "EX", seconds));
      }
      throw error;
    }
  }

  /** Waits (up to lockMs) for the replica holding the lock to fill the cache. */
  async function awaitOtherFetch(number: string): Promise<CachedEntry | undefined> {
    const deadline = Date.now() + lockMs;
    while (Date.now() < deadline) {
      await sleep(WAIT_STEP_MS);
      const entry = await readEntry(number);
      if (entry) return entry;
      const held = await quietly("lock", () => redis.exists(lockKey(number)));
      if (held === 0) return readEntry(number);
    }
    return undefined;
  }

  async function load(number: string): Promise<RegistryCompanyRecord> {
    const cached = await readEntry(number);
    if (cached) {
      options.onLookup?.("hit");
      return fromEntry(number, cached);
    }
    await coolingDown();
    const token = randomUUID();
    const locked = await quietly("lock", () => redis.set(lockKey(number), token, "PX", lockMs, "NX"));
    if (locked === null) {
      const entry = await awaitOtherFetch(number);
      if (entry) {
        options.onLookup?.("joined");
        return fromEntry(number, entry);
      }
    }
    options.onLookup?.("miss");
    try {
      return await fetchFromRegistry(number);
    } finally {
      if (locked === "OK") await quietly("unlock", () => redis.eval(RELEASE_LOCK, 1, lockKey(number), token));
    }
  }

  return {
    getCompany(companyNumber) {
      const running = inFlight.get(companyNumber);
      if (running) {
        options.onLookup?.("joined");
        return running;
      }
      const lookup = load(companyNumber).finally(() => inFlight.delete(companyNumber));
      inFlight.set(companyNumber, lookup);
      return lookup;
    },
  };
}
