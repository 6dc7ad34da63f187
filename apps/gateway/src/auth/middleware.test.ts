import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../admin/accounts.ts";
import { parseApiKey } from "../keys/format.ts";
import { revokeApiKey } from "../keys/revoke.ts";
import { createApiKeyVerifier } from "../keys/verifier.ts";
import { createRateLimiter } from "../rate-limit/limiter.ts";
import type { RateLimits } from "../rate-limit/limits.ts";
import { createAuthMiddleware } from "./middleware.ts";
import { awaitRoomInMinute, createGatewayTestEnv, listen, renderErrors } from "../test-support/test-env.ts";
import type { GatewayTestEnv } from "../test-support/test-env.ts";

describe("auth middleware", () => {
  let env: GatewayTestEnv;
  let keys: { live: string; test: string; accountId: string };
  const servers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    env = await createGatewayTestEnv("auth");
    const created = await createAccount(
      env.db,
      { name: "Auth Ltd", openingBalancePence: 0n, rateLimitPerMinute: 9 },
      { hasher: env.hasher },
    );
    keys = { live: created.liveKey, test: created.testKey, accountId: created.accountId };
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await env?.close();
  });

  async function start(options: { addressLimits?: RateLimits; cacheTtlMs?: number } = {}) {
    const verifier = createApiKeyVerifier({ db: env.db, hasher: env.hasher, cacheTtlMs: options.cacheTtlMs ?? 5_000 });
    const limiter = createRateLimiter({ redis: env.redis(), keyPrefix: env.freshPrefix() });
    const app = express();
    app.set("trust proxy", true);
    app.use(createAuthMiddleware({ verifier, limiter, ...(options.addressLimits ? { addressLimits: options.addressLimits } : {}) }));
    app.get("/whoami", (_req, res) => void res.json({ auth: res.locals.auth }));
    app.use(renderErrors());
    const server = await listen(app);
    servers.push(server);
    return (headers: Record<string, string> = {}) => fetch(`${server.url}/whoami`, { headers });
  }

  it("sets res.locals.auth for valid live and test keys", async () => {
    const call = await start();
    const live = await call({ "X-API-Key": keys.live });
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({
      auth: { accountId: keys.accountId, keyId: parseApiKey(keys.live)!.keyId, mode: "live", limits: { perMinute: 9, perDay: 1000 } },
    });
    const test = await call({ "X-API-Key": keys.test });
    expect(((await test.json()) as { auth: { mode: string } }).auth.mode).toBe("test");
  });

  it("answers 401 AUTH_REQUIRED without the header and INVALID_KEY for bad keys", async () => {
    const call = await start();
    const missing = await call();
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ success: false, error: { code: "AUTH_REQUIRED" } });

    const live = parseApiKey(keys.live)!;
    const test = parseApiKey(keys.test)!;
    for (const bad of [
      "not-a-key",
      keys.live.replace("api_live_", "api_test_"), // right secret, wrong mode
      `api_live_${live.keyId}_${test.secret}`, // wrong secret
      `api_live_ZZZZZZZZZZZZZZZZ_${live.secret}`, // unknown key id
      keys.live.toUpperCase(),
    ]) {
      const response = await call({ "X-API-Key": bad });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("INVALID_KEY");
      expect(body.error.message).not.toContain(bad);
    }
  });

  it("rejects a revoked key within the cache TTL", async () => {
    const created = await createAccount(env.db, { name: "Revoked Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    const call = await start({ cacheTtlMs: 200 });
    expect((await call({ "X-API-Key": created.liveKey })).status).toBe(200);
    await revokeApiKey(env.db, parseApiKey(created.liveKey)!.keyId);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const response = await call({ "X-API-Key": created.liveKey });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "INVALID_KEY" } });
  });

  it("limits failed attempts per client address, with rate-limit headers and Retry-After", async () => {
    const redis = env.redis();
    await awaitRoomInMinute(redis);
    const call = await start({ addressLimits: { perMinute: 3, perDay: 100 } });
    const from = (address: string, key?: string) => call({ "X-Forwarded-For": address, ...(key ? { "X-API-Key": key } : {}) });

    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await from("203.0.113.7", i === 0 ? undefined : "api_live_bogus");
      statuses.push(response.status);
      expect(response.headers.get("x-ratelimit-limit-minute")).toBe("3");
      expect(response.headers.get("x-ratelimit-remaining-minute")).toBe(String(2 - i));
      expect(response.headers.get("x-ratelimit-limit-day")).toBe("100");
      expect(response.headers.get("x-ratelimit-remaining-day")).toBe(String(99 - i));
    }
    expect(statuses).toEqual([401, 401, 401]);

    const limited = await from("203.0.113.7");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: "RATE_LIMIT_EXCEEDED" } });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(limited.headers.get("x-ratelimit-remaining-minute")).toBe("0");

    // A valid key is served from a blocked address, even one not in the cache; failures stay 429...
    const fresh = await createAccount(env.db, { name: "Fresh Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    expect((await from("203.0.113.7", fresh.liveKey)).status).toBe(200);
    expect((await from("203.0.113.7", `api_live_${parseApiKey(fresh.liveKey)!.keyId}_${parseApiKey(keys.live)!.secret}`)).status).toBe(429);
    // ...and other addresses are unaffected.
    expect((await from("203.0.113.8")).status).toBe(401);
    expect((await from("203.0.113.8", keys.live)).status).toBe(200);
  });
});
