import express from "express";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@dormant/contracts";
import { getFreePort } from "@dormant/testing";
import { createAccount } from "../admin/accounts.ts";
import { createAuthMiddleware } from "../auth/middleware.ts";
import { awaitRoomInMinute, createGatewayTestEnv, listen, renderErrors } from "../test-support/test-env.ts";
import type { GatewayTestEnv } from "../test-support/test-env.ts";
import { issueApiKey } from "../keys/issue.ts";
import { revokeApiKey } from "../keys/revoke.ts";
import { createApiKeyVerifier } from "../keys/verifier.ts";
import { createRateLimiter } from "./limiter.ts";
import { createRateLimitMiddleware } from "./middleware.ts";

describe("rate limit middleware", () => {
  let env: GatewayTestEnv;
  const servers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    env = await createGatewayTestEnv("ratelimit");
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await env?.close();
  });

  /** One gateway replica: its own Redis connection, verifier and limiter, sharing `keyPrefix`. */
  async function replica(keyPrefix: string, redis: Redis = env.redis()) {
    const verifier = createApiKeyVerifier({ db: env.db, hasher: env.hasher });
    const limiter = createRateLimiter({ redis, keyPrefix });
    const app = express();
    app.use(createAuthMiddleware({ verifier, limiter }), createRateLimitMiddleware({ limiter }));
    app.get("/ok", (_req, res) => void res.json({ ok: true }));
    app.get("/missing", () => {
      throw new AppError("FILING_NOT_FOUND", "Filing not found");
    });
    app.use(renderErrors());
    const server = await listen(app);
    servers.push(server);
    return (path: string, key: string) => fetch(`${server.url}${path}`, { headers: { "X-API-Key": key } });
  }

  const account = (overrides: { rateLimitPerMinute?: number; rateLimitPerDay?: number } = {}) =>
    createAccount(env.db, { name: "Limits Ltd", openingBalancePence: 0n, ...overrides }, { hasher: env.hasher });

  const headers = (response: Response) => ({
    limitMinute: response.headers.get("x-ratelimit-limit-minute"),
    remainingMinute: response.headers.get("x-ratelimit-remaining-minute"),
    limitDay: response.headers.get("x-ratelimit-limit-day"),
    remainingDay: response.headers.get("x-ratelimit-remaining-day"),
  });

  it("sends the four headers with the defaults on successes and on errors", async () => {
    const { liveKey } = await account();
    const call = await replica(env.freshPrefix());
    const ok = await call("/ok", liveKey);
    expect(ok.status).toBe(200);
    expect(headers(ok)).toEqual({ limitMinute: "60", remainingMinute: "59", limitDay: "1000", remainingDay: "999" });
    const missing = await call("/missing", liveKey);
    expect(missing.status).toBe(404);
    expect(headers(missing)).toEqual({ limitMinute: "60", remainingMinute: "58", limitDay: "1000", remainingDay: "998" });
  });

  it("lets exactly the limit through a concurrent burst spread over two replicas sharing Redis", async () => {
    const limit = 25;
    const { liveKey } = await account({ rateLimitPerMinute: limit });
    const prefix = env.freshPrefix();
    const [a, b] = [await replica(prefix), await replica(prefix)];
    await awaitRoomInMinute(env.redis());
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b)("/ok", liveKey)));
    const allowed = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(allowed).toHaveLength(limit);
    expect(refused).toHaveLength(60 - limit);
    // Each allowed request saw a distinct count: remaining 24, 23, ... 0.
    expect(allowed.map((r) => Number(r.headers.get("x-ratelimit-remaining-minute"))).sort((x, y) => x - y)).toEqual(
      Array.from({ length: limit }, (_, i) => i),
    );
    for (const response of refused) {
      expect(headers(response)).toMatchObject({ limitMinute: String(limit), remainingMinute: "0" });
      expect(await response.json()).toMatchObject({ success: false, error: { code: "RATE_LIMIT_EXCEEDED" } });
    }
  });

  it("refuses with a Retry-After that runs to the end of the clock minute", async () => {
    const { liveKey } = await account({ rateLimitPerMinute: 2 });
    const call = await replica(env.freshPrefix());
    const redis = env.redis();
    await awaitRoomInMinute(redis);
    await call("/ok", liveKey);
    await call("/ok", liveKey);
    const refused = await call("/ok", liveKey);
    const [seconds] = await redis.time();
    expect(refused.status).toBe(429);
    const retryAfter = refused.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Math.abs(Number(retryAfter) - (60 - (Number(seconds) % 60)))).toBeLessThanOrEqual(1);
    expect(headers(refused)).toEqual({ limitMinute: "2", remainingMinute: "0", limitDay: "1000", remainingDay: "998" });
  });

  it("enforces the per-day limit, with a Retry-After to the end of the UTC day", async () => {
    const { liveKey } = await account({ rateLimitPerMinute: 100, rateLimitPerDay: 3 });
    const call = await replica(env.freshPrefix());
    const redis = env.redis();
    await awaitRoomInMinute(redis);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call("/ok", liveKey)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await call("/ok", liveKey);
    const [seconds] = await redis.time();
    expect(refused.status).toBe(429);
    expect(headers(refused)).toEqual({ limitMinute: "100", remainingMinute: "97", limitDay: "3", remainingDay: "0" });
    expect(Math.abs(Number(refused.headers.get("retry-after")) - (86_400 - (Number(seconds) % 86_400)))).toBeLessThanOrEqual(1);
  });

  it("counts each key separately and honours each account's override", async () => {
    const strict = await account({ rateLimitPerMinute: 1 });
    const relaxed = await account();
    const call = await replica(env.freshPrefix());
    await awaitRoomInMinute(env.redis());
    expect((await call("/ok", strict.liveKey)).status).toBe(200);
    expect((await call("/ok", strict.liveKey)).status).toBe(429);
    // The account's test key has counters of its own; other accounts keep the defaults.
    expect((await call("/ok", strict.testKey)).status).toBe(200);
    const other = await call("/ok", relaxed.liveKey);
    expect(other.status).toBe(200);
    expect(headers(other)).toMatchObject({ limitMinute: "60", remainingMinute: "59" });
  });

  it("bounds the account across all its keys: more keys, or revoking and creating keys, give it no more", async () => {
    const limited = await account({ rateLimitPerMinute: 6 });
    const more = await Promise.all([1, 2, 3].map(() => issueApiKey(env.db, { accountId: limited.accountId, mode: "live" }, env.hasher)));
    const call = await replica(env.freshPrefix());
    await awaitRoomInMinute(env.redis());
    const keys = [limited.liveKey, ...more.map((key) => key.apiKey)];
    const statuses: number[] = [];
    for (let round = 0; round < 4; round++) for (const key of keys) statuses.push((await call("/ok", key)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(6);
    // A key revoked and a new one created: the account's window is still used up.
    await revokeApiKey(env.db, more[0]!.keyId, limited.accountId);
    const fresh = await issueApiKey(env.db, { accountId: limited.accountId, mode: "live" }, env.hasher);
    const refused = await call("/ok", fresh.apiKey);
    expect(refused.status).toBe(429);
    // The key's own headers, as the spec has them: this key has sent nothing yet.
    expect(headers(refused)).toMatchObject({ limitMinute: "6", remainingMinute: "6" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({
      error: { code: "RATE_LIMIT_EXCEEDED", message: expect.stringContaining("across all its keys") },
    });
    // The account's test keys count apart: a sandbox loop cannot use up its live requests.
    expect((await call("/ok", limited.testKey)).status).toBe(200);
  });

  it("fails closed with a retryable 503 when Redis cannot be reached", async () => {
    const { liveKey } = await account();
    const unreachable = new Redis({ port: await getFreePort(), lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const call = await replica(env.freshPrefix(), unreachable);
    const response = await call("/ok", liveKey);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
    unreachable.disconnect();
  });
});
