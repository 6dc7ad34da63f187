import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../admin/accounts.ts";
import { createAuthMiddleware } from "../auth/middleware.ts";
import { issueApiKey } from "../keys/issue.ts";
import { createApiKeyVerifier } from "../keys/verifier.ts";
import { awaitRoomInMinute, createGatewayTestEnv, type GatewayTestEnv, listen, renderErrors } from "../test-support/test-env.ts";
import { createRateLimiter } from "./limiter.ts";
import { createRateLimitMiddleware } from "./middleware.ts";
import { createValidationLimitMiddleware } from "./validation-limit.ts";

describe("the validate-only routes' limit per account and mode", () => {
  let env: GatewayTestEnv;
  const servers: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    env = await createGatewayTestEnv("validation_limit");
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await env?.close();
  });

  it("refuses an account's fourth validation in a minute, across its keys, and nothing else", async () => {
    const limiter = createRateLimiter({ redis: env.redis(), keyPrefix: env.freshPrefix() });
    const app = express();
    const verifier = createApiKeyVerifier({ db: env.db, hasher: env.hasher });
    app.use(createAuthMiddleware({ verifier, limiter }), createRateLimitMiddleware({ limiter }));
    app.post("/validate", createValidationLimitMiddleware({ limiter, limits: { perMinute: 3, perDay: 100 } }), (_req, res) => {
      res.json({ valid: true });
    });
    app.get("/read", (_req, res) => void res.json({ ok: true }));
    app.use(renderErrors());
    const server = await listen(app);
    servers.push(server);
    const call = (method: "GET" | "POST", path: string, key: string) =>
      fetch(`${server.url}${path}`, { method, headers: { "X-API-Key": key } });

    const busy = await createAccount(env.db, { name: "Loop Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    const second = await issueApiKey(env.db, { accountId: busy.accountId, mode: "live" }, env.hasher);
    const calm = await createAccount(env.db, { name: "Calm Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    await awaitRoomInMinute(env.redis());

    const statuses = [];
    for (const key of [busy.liveKey, second.apiKey, busy.liveKey]) statuses.push((await call("POST", "/validate", key)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await call("POST", "/validate", second.apiKey);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The spec's headers stay the key's: this key has room left in its own windows.
    expect(refused.headers.get("x-ratelimit-remaining-minute")).toBe("58");
    expect(await refused.json()).toMatchObject({
      error: { code: "RATE_LIMIT_EXCEEDED", message: expect.stringContaining("validation limit") },
    });

    // Other requests of the account, its test keys' validations and other accounts go on.
    expect((await call("GET", "/read", busy.liveKey)).status).toBe(200);
    expect((await call("POST", "/validate", busy.testKey)).status).toBe(200);
    expect((await call("POST", "/validate", calm.liveKey)).status).toBe(200);
  });
});
