import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@dormant/testing";
import { createAccount } from "../admin/accounts.ts";
import { createGatewayTestEnv } from "../test-support/test-env.ts";
import type { GatewayTestEnv } from "../test-support/test-env.ts";
import { formatApiKey, parseApiKey } from "./format.ts";
import type { ParsedApiKey } from "./format.ts";
import { revokeApiKey } from "./revoke.ts";
import { createApiKeyVerifier } from "./verifier.ts";

const parse = (raw: string): ParsedApiKey => parseApiKey(raw)!;

describe("API key verification", () => {
  let env: GatewayTestEnv;
  beforeAll(async () => {
    env = await createGatewayTestEnv("verifier");
  });
  afterAll(async () => env?.close());

  it("stores only the keyed hash of the secret", async () => {
    const created = await createAccount(env.db, { name: "Hash Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    for (const raw of [created.liveKey, created.testKey]) {
      const key = parse(raw);
      const rows = await env.db.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM api_keys WHERE key_id = ${key.keyId}`;
      expect(rows).toHaveLength(1);
      expect(rows[0]!.secret_hash).toBe(env.hasher.hash(key.secret));
      expect(JSON.stringify(rows[0])).not.toContain(key.secret);
      expect(rows[0]!.mode).toBe(key.mode);
    }
  });

  it("accepts a valid key with the default limits, and rejects wrong secrets, modes and ids", async () => {
    const created = await createAccount(env.db, { name: "Verify Ltd", openingBalancePence: 500n }, { hasher: env.hasher });
    const verifier = createApiKeyVerifier({ db: env.db, hasher: env.hasher });
    const live = parse(created.liveKey);
    const test = parse(created.testKey);

    expect(await verifier.verify(live)).toEqual({
      ok: true,
      auth: { accountId: created.accountId, keyId: live.keyId, mode: "live", limits: { perMinute: 60, perDay: 1000 } },
    });
    expect(await verifier.verify(test)).toMatchObject({ ok: true, auth: { mode: "test", accountId: created.accountId } });

    const otherSecret = { ...live, secret: test.secret };
    expect(await verifier.verify(otherSecret)).toEqual({ ok: false, reason: "wrong_secret" });
    // The cached row answers the second time, with the same verdict.
    expect(verifier.verifyCached(otherSecret)).toEqual({ ok: false, reason: "wrong_secret" });
    expect(await verifier.verify({ ...live, mode: "test" })).toEqual({ ok: false, reason: "wrong_mode" });
    expect(await verifier.verify({ ...live, keyId: "UnknownKeyId0000" })).toEqual({ ok: false, reason: "unknown_key" });
    expect(parseApiKey(formatApiKey(live))).toEqual(live);
  });

  it("applies the account's limit overrides", async () => {
    const created = await createAccount(
      env.db,
      { name: "Override Ltd", openingBalancePence: 0n, rateLimitPerMinute: 7, rateLimitPerDay: 70 },
      { hasher: env.hasher },
    );
    const verifier = createApiKeyVerifier({ db: env.db, hasher: env.hasher });
    expect(await verifier.verify(parse(created.liveKey))).toMatchObject({ ok: true, auth: { limits: { perMinute: 7, perDay: 70 } } });
  });

  it("stops accepting a revoked key within the cache TTL", async () => {
    const created = await createAccount(env.db, { name: "Revoke Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    const ttlMs = 300;
    const verifier = createApiKeyVerifier({ db: env.db, hasher: env.hasher, cacheTtlMs: ttlMs });
    const key = parse(created.liveKey);
    expect((await verifier.verify(key)).ok).toBe(true);

    const revoked = await revokeApiKey(env.db, key.keyId);
    const revokedAt = Date.now();
    expect(revoked?.keyId).toBe(key.keyId);
    // Inside the TTL the cached verdict may still stand; after it, the database decides.
    await waitFor(async () => (await verifier.verify(key)).ok === false, { timeoutMs: ttlMs + 500, intervalMs: 20, what: "revocation" });
    expect(Date.now() - revokedAt).toBeLessThan(ttlMs + 500);
    expect(await verifier.verify(key)).toEqual({ ok: false, reason: "revoked" });

    // Revoking again keeps the first revocation time; unknown ids are null.
    expect((await revokeApiKey(env.db, key.keyId))?.revokedAt).toEqual(revoked?.revokedAt);
    expect(await revokeApiKey(env.db, "NoSuchKeyId00000")).toBeNull();
  });

  it("does not ask the database again while the row is cached", async () => {
    const created = await createAccount(env.db, { name: "Cache Ltd", openingBalancePence: 0n }, { hasher: env.hasher });
    const verifier = createApiKeyVerifier({ db: env.db, hasher: env.hasher, cacheTtlMs: 60_000 });
    const key = parse(created.liveKey);
    expect(verifier.verifyCached(key)).toBeUndefined();
    await Promise.all([verifier.verify(key), verifier.verify(key)]);
    // Deleting the row proves later answers come from the cache.
    await env.db.apiKey.delete({ where: { keyId: key.keyId } });
    expect(verifier.verifyCached(key)).toMatchObject({ ok: true });
    expect(await verifier.verify(key)).toMatchObject({ ok: true });
  });
});
