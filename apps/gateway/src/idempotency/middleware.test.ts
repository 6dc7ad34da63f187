import { randomUUID } from "node:crypto";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@dormant/contracts";
import { createAccount } from "../admin/accounts.ts";
import type { CreatedAccount } from "../admin/accounts.ts";
import { createAuthMiddleware } from "../auth/middleware.ts";
import { createGatewayTestEnv, listen, renderErrors, TEST_PEPPER } from "../test-support/test-env.ts";
import type { GatewayTestEnv } from "../test-support/test-env.ts";
import { createApiKeyVerifier } from "../keys/verifier.ts";
import { parseApiKey } from "../keys/format.ts";
import { createRateLimiter } from "../rate-limit/limiter.ts";
import { createRateLimitMiddleware } from "../rate-limit/middleware.ts";
import { requestFingerprint } from "./fingerprint.ts";
import { createIdempotencyMiddleware } from "./middleware.ts";
import { createIdempotencyStore } from "./store.ts";

/** Refusals the handler answers with, as the filing service would. */
const REFUSALS = {
  in_use: () => new AppError("IDEMPOTENCY_KEY_IN_USE", "still running", { retryAfterSeconds: 2 }),
  broke: () =>
    new AppError("INSUFFICIENT_BALANCE", "top up", {
      details: [{ field: "balance", message: "low", required: "20.00", available: "0.00" }],
    }),
  limited: () => new AppError("RATE_LIMIT_EXCEEDED", "slow down", { retryAfterSeconds: 1 }),
  exists: () =>
    new AppError("FILING_EXISTS", "exists", { details: [{ field: "filing_id", message: "the existing filing", filing_id: "fil_x" }] }),
  in_doubt: () =>
    new AppError("TAX_UNAVAILABLE", "in doubt", {
      retryable: false,
      retryAfterSeconds: 30,
      details: [{ field: "filing_id", message: "in doubt", filing_id: "fil_doubt", filing_status: "pending" }],
    }),
} as const;

interface Body {
  outcome?: "ok" | "invalid" | "unavailable" | keyof typeof REFUSALS;
  delay_ms?: number;
  company_number?: string;
  [field: string]: unknown;
}

describe("idempotency middleware", () => {
  let env: GatewayTestEnv;
  let account: CreatedAccount;
  const servers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    env = await createGatewayTestEnv("idempotency");
    account = await createAccount(
      env.db,
      { name: "Idem Ltd", openingBalancePence: 0n, rateLimitPerMinute: 10_000 },
      { hasher: env.hasher },
    );
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await env?.close();
  });

  /** A stack like the gateway's submit route; counts how often the handler really ran. */
  function stack(prefix = env.freshPrefix()) {
    const executions: Body[] = [];
    async function replica(options: { waitMs?: number; claimTtlMs?: number } = {}) {
      const redis = env.redis();
      const limiter = createRateLimiter({ redis, keyPrefix: prefix });
      const store = createIdempotencyStore({ redis, keyPrefix: prefix, ...(options.claimTtlMs ? { claimTtlMs: options.claimTtlMs } : {}) });
      const app = express();
      app.use(createAuthMiddleware({ verifier: createApiKeyVerifier({ db: env.db, hasher: env.hasher }), limiter }));
      app.use(createRateLimitMiddleware({ limiter }));
      app.use(express.json());
      app.post(
        "/api/v1/filings/ct600",
        createIdempotencyMiddleware({
          store,
          fingerprintSecret: TEST_PEPPER,
          pollIntervalMs: 20,
          ...(options.waitMs ? { waitMs: options.waitMs } : {}),
        }),
        async (req, res) => {
          const body = req.body as Body;
          executions.push(body);
          if (body.delay_ms) await new Promise((resolve) => setTimeout(resolve, body.delay_ms));
          if (body.outcome === "invalid")
            throw new AppError("VALIDATION_ERROR", "invalid", { details: [{ field: "utr", message: "bad" }] });
          if (body.outcome === "unavailable") throw new AppError("TAX_UNAVAILABLE", "try later", { retryAfterSeconds: 30 });
          if (body.outcome && body.outcome in REFUSALS) throw REFUSALS[body.outcome as keyof typeof REFUSALS]();
          res.status(202).json({ success: true, data: { filing_id: `fil_${randomUUID()}`, execution: executions.length } });
        },
      );
      app.use(renderErrors());
      const server = await listen(app);
      servers.push(server);
      return (key: string, idempotencyKey: string | undefined, body: Body) =>
        fetch(`${server.url}/api/v1/filings/ct600`, {
          method: "POST",
          headers: {
            "X-API-Key": key,
            "Content-Type": "application/json",
            ...(idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey }),
          },
          body: JSON.stringify(body),
        });
    }
    return { prefix, executions, replica };
  }

  async function redisKeys(prefix: string): Promise<string[]> {
    return env.redis().keys(`${prefix}idem:*`);
  }

  it("replays the original status and body for the same key and body, whatever the key order", async () => {
    const { executions, replica } = stack();
    const call = await replica();
    const first = await call(account.liveKey, "order-1", { company_number: "00000001", utr: "1234567890" });
    expect(first.status).toBe(202);
    const firstBody = await first.text();
    const again = await call(account.liveKey, "order-1", { utr: "1234567890", company_number: "00000001" });
    expect(again.status).toBe(202);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get("content-type")).toMatch(/^application\/json/);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-ratelimit-limit-minute")).toBe("10000");
    expect(executions).toHaveLength(1);
  });

  it("keeps the answer for 24 hours", async () => {
    const { prefix, replica } = stack();
    const call = await replica();
    expect((await call(account.liveKey, "ttl-1", { company_number: "00000001" })).status).toBe(202);
    const [key] = await redisKeys(prefix);
    const ttl = await env.redis().pttl(key!);
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 10_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
    // The Redis key names neither the API key's secret nor the client's idempotency key.
    expect(key).toContain(parseApiKey(account.liveKey)!.keyId);
    expect(key).not.toContain("ttl-1");
  });

  it("answers 409 IDEMPOTENCY_KEY_CONFLICT to a live key reusing the key with another body", async () => {
    const { executions, replica } = stack();
    const call = await replica();
    expect((await call(account.liveKey, "conflict-1", { company_number: "00000001" })).status).toBe(202);
    const conflict = await call(account.liveKey, "conflict-1", { company_number: "00000002" });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ success: false, error: { code: "IDEMPOTENCY_KEY_CONFLICT" } });
    expect(executions).toHaveLength(1);
  });

  it("stores nothing for test keys: another body is another execution, never a conflict", async () => {
    const { prefix, executions, replica } = stack();
    const call = await replica();
    const one = await call(account.testKey, "sandbox-1", { company_number: "00000001" });
    const two = await call(account.testKey, "sandbox-1", { company_number: "00000002" });
    const three = await call(account.testKey, "sandbox-1", { company_number: "00000001" });
    expect([one.status, two.status, three.status]).toEqual([202, 202, 202]);
    expect(three.headers.get("idempotent-replayed")).toBeNull();
    expect(executions).toHaveLength(3);
    expect(await redisKeys(prefix)).toEqual([]);
  });

  it("requires the header, at most 64 characters, in both modes (400, nothing stored)", async () => {
    const { prefix, executions, replica } = stack();
    const call = await replica();
    for (const key of [account.liveKey, account.testKey]) {
      const missing = await call(key, undefined, { company_number: "00000001" });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: { code: "VALIDATION_ERROR", details: [{ field: "Idempotency-Key" }] } });
      expect(missing.headers.get("x-ratelimit-remaining-minute")).toMatch(/^\d+$/);
      const tooLong = await call(key, "k".repeat(65), { company_number: "00000001" });
      expect(tooLong.status).toBe(400);
      expect(await tooLong.json()).toMatchObject({ error: { code: "VALIDATION_ERROR", details: [{ field: "Idempotency-Key" }] } });
      expect((await call(key, "k".repeat(64), { company_number: "00000001" })).status).toBe(202);
    }
    expect(executions).toHaveLength(2);
    expect(await redisKeys(prefix)).toHaveLength(1);
  });

  it("does not keep 400 answers: the key stays usable", async () => {
    const { executions, replica } = stack();
    const call = await replica();
    const invalid = await call(account.liveKey, "invalid-1", { outcome: "invalid" });
    expect(invalid.status).toBe(400);
    expect((await call(account.liveKey, "invalid-1", { outcome: "invalid" })).status).toBe(400);
    const fixed = await call(account.liveKey, "invalid-1", { outcome: "ok" });
    expect(fixed.status).toBe(202);
    expect(executions).toHaveLength(3);
  });

  it("does not keep 5xx answers: a retry runs again, and its success is then replayed", async () => {
    const { executions, replica } = stack();
    const call = await replica();
    const failed = await call(account.liveKey, "unavailable-1", { outcome: "unavailable" });
    expect(failed.status).toBe(502);
    expect(failed.headers.get("retry-after")).toBe("30");
    const retried = await call(account.liveKey, "unavailable-1", { outcome: "unavailable" });
    expect(retried.status).toBe(502);
    expect(executions).toHaveLength(2);
    // Same key, corrected body: no conflict because nothing was kept.
    const ok = await call(account.liveKey, "unavailable-1", { outcome: "ok" });
    expect(ok.status).toBe(202);
    const replayed = await call(account.liveKey, "unavailable-1", { outcome: "ok" });
    expect(await replayed.text()).toBe(await ok.text());
    expect(executions).toHaveLength(3);
  });

  // Issue 25: a transient refusal kept as the key's answer hid the filing from a retrying agent
  // for the key's whole life. Each of these is answered again by running the request again.
  for (const [outcome, status] of [
    ["in_use", 409],
    ["broke", 402],
    ["limited", 429],
    ["in_doubt", 502],
  ] as const) {
    it(`never keeps a transient ${status} ${REFUSALS[outcome]().code}: the retry runs, and its success is kept`, async () => {
      const { prefix, executions, replica } = stack();
      const call = await replica();
      const refused = await call(account.liveKey, `transient-${outcome}`, { outcome });
      expect(refused.status).toBe(status);
      expect(refused.headers.get("idempotent-replayed")).toBeNull();
      expect(await redisKeys(prefix)).toEqual([]);
      const again = await call(account.liveKey, `transient-${outcome}`, { outcome });
      expect(again.status).toBe(status);
      expect(again.headers.get("idempotent-replayed")).toBeNull();
      expect(executions).toHaveLength(2);
      // The same key, now with a body that succeeds: no conflict (nothing was kept), and the 202 is the key's answer.
      const ok = await call(account.liveKey, `transient-${outcome}`, { outcome: "ok" });
      expect(ok.status).toBe(202);
      const replayed = await call(account.liveKey, `transient-${outcome}`, { outcome: "ok" });
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(await replayed.text()).toBe(await ok.text());
      expect(executions).toHaveLength(3);
    });
  }

  it("keeps a deciding refusal (409 FILING_EXISTS): replayed, not run again", async () => {
    const { executions, replica } = stack();
    const call = await replica();
    const first = await call(account.liveKey, "exists-1", { outcome: "exists" });
    expect(first.status).toBe(409);
    const again = await call(account.liveKey, "exists-1", { outcome: "exists" });
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect(executions).toHaveLength(1);
  });

  it("executes concurrent duplicates once across two replicas; the others replay its answer", async () => {
    const { executions, replica } = stack();
    const [a, b] = [await replica(), await replica()];
    const body = { company_number: "00000001", delay_ms: 300 };
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b)(account.liveKey, "burst-1", body)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(202));
    const bodies = new Set(await Promise.all(responses.map((r) => r.text())));
    expect(bodies.size).toBe(1);
    expect(executions).toHaveLength(1);
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
  });

  it("answers 409 IDEMPOTENCY_KEY_IN_USE with Retry-After when the original outlasts the wait", async () => {
    const { executions, replica } = stack();
    const call = await replica({ waitMs: 100 });
    const original = call(account.liveKey, "slow-1", { company_number: "00000001", delay_ms: 600 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const duplicate = await call(account.liveKey, "slow-1", { company_number: "00000001", delay_ms: 600 });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_IN_USE" } });
    expect(duplicate.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    // A different body while the original runs is a conflict, not a wait.
    const other = await call(account.liveKey, "slow-1", { company_number: "00000002" });
    expect(await other.json()).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_CONFLICT" } });
    expect((await original).status).toBe(202);
    expect(executions).toHaveLength(1);
  });

  it("keeps refreshing the claim while a request runs longer than the claim TTL", async () => {
    const { executions, replica } = stack();
    const call = await replica({ claimTtlMs: 300, waitMs: 3_000 });
    const body = { company_number: "00000001", delay_ms: 1_000 };
    const original = call(account.liveKey, "long-1", body);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const duplicate = await call(account.liveKey, "long-1", body);
    expect(duplicate.status).toBe(202);
    expect(duplicate.headers.get("idempotent-replayed")).toBe("true");
    expect(await duplicate.text()).toBe(await (await original).text());
    expect(executions).toHaveLength(1);
  });

  it("frees a key whose claimant crashed once the short claim TTL runs out", async () => {
    const { prefix, executions, replica } = stack();
    const call = await replica({ waitMs: 50 });
    // A replica that claimed the key and died before answering: its claim has no heartbeat.
    const crashed = createIdempotencyStore({ redis: env.redis(), keyPrefix: prefix, claimTtlMs: 300 });
    const liveKeyId = parseApiKey(account.liveKey)!.keyId;
    const body = { company_number: "00000001" };
    // Same fingerprint as the request below computes, so the wait path (not the conflict path) is taken.
    const fingerprint = requestFingerprint({ method: "POST", path: "/api/v1/filings/ct600", body }, TEST_PEPPER);
    expect((await crashed.claim({ apiKeyId: liveKeyId, idempotencyKey: "crash-1" }, fingerprint)).claimed).toBe(true);

    expect((await call(account.liveKey, "crash-1", body)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const after = await call(account.liveKey, "crash-1", body);
    expect(after.status).toBe(202);
    expect(executions).toHaveLength(1);
  });

  it("scopes keys per API key", async () => {
    const other = await createAccount(env.db, { name: "Other Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    const { executions, replica } = stack();
    const call = await replica();
    expect((await call(account.liveKey, "shared-1", { company_number: "00000001" })).status).toBe(202);
    expect((await call(other.liveKey, "shared-1", { company_number: "00000002" })).status).toBe(202);
    expect(executions).toHaveLength(2);
  });
});
