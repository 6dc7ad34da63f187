import { randomUUID } from "node:crypto";
import { ApiKeySummary, AppError, CreatedApiKey, GATEWAY_RPC_QUEUE } from "@dormant/contracts";
import { rejectionOf, waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseApiKey } from "../keys/format.ts";
import { get } from "../test-support/requests.ts";
import { awaitRoomInMinute } from "../test-support/test-env.ts";
import { createGatewayRpcHarness, type GatewayRpcHarness } from "../test-support/gateway-rpc-harness.ts";
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from "./create-key.ts";

/** The key cache TTL of this file's gateway: revocation must show within it. */
const CACHE_TTL_MS = 500;

describe("gateway.rpc keys (create_key, list_keys, revoke_key) on a test vhost", () => {
  let h: GatewayRpcHarness;
  beforeAll(async () => {
    h = await createGatewayRpcHarness("keys", { apiKeyCacheTtlMs: CACHE_TTL_MS, lastUsedIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await h?.close();
  });

  const rpc = {
    signUp: () => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.create_account", { request_id: `signup-${randomUUID()}`, name: "Keys Ltd" }),
    enable: (account_id: string) => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.enable_api_access", { account_id }),
    create: (account_id: string, mode: "live" | "test", name: string) =>
      h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.create_key", { account_id, mode, name }),
    list: (account_id: string) => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.list_keys", { account_id }),
    revoke: (account_id: string, key_id: string) => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.revoke_key", { account_id, key_id }),
  };
  const accountWithAccess = async () => {
    const account = await rpc.signUp();
    await rpc.enable(account.account_id);
    return account.account_id;
  };

  it("refuses a key before API access is enabled (VALIDATION_ERROR with a detail), and for an unknown account (NOT_FOUND)", async () => {
    const account = await rpc.signUp();
    const refused = await rejectionOf(rpc.create(account.account_id, "live", "CI server"), AppError);
    expect(refused).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "account_id", message: expect.stringMatching(/enable API access/) }],
    });
    expect(await rpc.list(account.account_id)).toEqual({ keys: [] });
    expect(await rejectionOf(rpc.create("acc_unknown0000000000", "live", "x"), AppError)).toMatchObject({ code: "NOT_FOUND" });
    expect(await rejectionOf(rpc.list("acc_unknown0000000000"), AppError)).toMatchObject({ code: "NOT_FOUND" });
  });

  it("creates named keys, the secret once (only its hash stored), and lists them without secrets", async () => {
    const accountId = await accountWithAccess();
    const live = CreatedApiKey.parse(await rpc.create(accountId, "live", "  CI server "));
    const test = await rpc.create(accountId, "test", "Claude Desktop");
    const parsed = parseApiKey(live.secret);
    expect(parsed).toMatchObject({ mode: "live", keyId: live.key.key_id });
    expect(live.key).toEqual({
      key_id: live.key.key_id,
      mode: "live",
      name: "CI server",
      prefix: `api_live_${live.key.key_id}`,
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
    });
    expect(live.secret.startsWith(live.key.prefix)).toBe(true);
    const row = await h.gw.db.apiKey.findUniqueOrThrow({ where: { keyId: live.key.key_id } });
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(parsed?.secret);

    const listed = await rpc.list(accountId);
    expect(listed.keys).toEqual(
      [live.key, test.key].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.key_id.localeCompare(b.key_id)),
    );
    for (const key of listed.keys) ApiKeySummary.strict().parse(key);
    expect(JSON.stringify(listed)).not.toContain(parsed?.secret);
    // The CLI's keys have no name.
    const cliKeys = await rpc.list(h.gw.account.accountId);
    expect(cliKeys.keys.map((k) => [k.mode, k.name])).toEqual([
      ["live", null],
      ["test", null],
    ]);
  });

  it("caps the keys an account holds unrevoked; revoking one makes room", async () => {
    const accountId = await accountWithAccess();
    const created = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS_PER_ACCOUNT; i++) created.push(await rpc.create(accountId, "test", `key ${i}`));
    expect(await rejectionOf(rpc.create(accountId, "test", "one too many"), AppError)).toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ field: "account_id" }],
    });
    await rpc.revoke(accountId, created[0]!.key.key_id);
    await expect(rpc.create(accountId, "live", "after revoking")).resolves.toMatchObject({ key: { name: "after revoking" } });
  });

  it("a key made by RPC authenticates on the API, records its last use, and stops within the cache TTL of its revocation", async () => {
    const accountId = await accountWithAccess();
    const { key, secret } = await rpc.create(accountId, "test", "Sandbox agent");
    const ok = await get(h.gw.app, "/filings", secret);
    expect(ok.status).toBe(200);
    const used = String(
      await waitFor(async () => (await rpc.list(accountId)).keys[0]?.last_used_at, { what: "last_used_at", timeoutMs: 5_000 }),
    );
    expect(Date.parse(used)).toBeGreaterThan(Date.now() - 60_000);

    const revoked = await rpc.revoke(accountId, key.key_id);
    expect(revoked).toEqual({ ...key, last_used_at: used, revoked_at: expect.any(String) });
    // A replica that has not cached the key refuses it at once; this one within the TTL.
    expect((await get(await h.gw.replica(), "/filings", secret)).status).toBe(401);
    const startedWaiting = Date.now();
    await waitFor(async () => (await get(h.gw.app, "/filings", secret)).status === 401, {
      what: "the revoked key refused",
      timeoutMs: 5_000,
    });
    expect(Date.now() - startedWaiting).toBeLessThan(CACHE_TTL_MS + 1_000);
    expect((await get(h.gw.app, "/filings", secret)).body.error.code).toBe("INVALID_KEY");
  });

  it("revokes idempotently, and answers NOT_FOUND for another account's key exactly as for an unknown one", async () => {
    const owner = await accountWithAccess();
    const other = await accountWithAccess();
    const { key } = await rpc.create(owner, "live", "Owner's key");
    const first = await rpc.revoke(owner, key.key_id);
    expect(first.revoked_at).not.toBeNull();
    expect(await rpc.revoke(owner, key.key_id)).toEqual(first);

    const { key: kept } = await rpc.create(owner, "live", "Kept");
    const foreign = await rejectionOf(rpc.revoke(other, kept.key_id), AppError);
    const unknown = await rejectionOf(rpc.revoke(other, "NoSuchKey0000000"), AppError);
    expect(foreign.toJSON()).toEqual(unknown.toJSON());
    expect(foreign.code).toBe("NOT_FOUND");
    expect(await rejectionOf(rpc.revoke(other, first.key_id), AppError)).toMatchObject({ code: "NOT_FOUND" });
    expect((await rpc.list(owner)).keys.find((k) => k.key_id === kept.key_id)?.revoked_at).toBeNull();
  });
});

describe("gateway.rpc key changes are limited per account", () => {
  let h: GatewayRpcHarness;
  beforeAll(async () => {
    h = await createGatewayRpcHarness(
      "key_changes",
      {},
      {
        keyChangeLimits: { create: { perMinute: 3, perDay: 100 }, revoke: { perMinute: 2, perDay: 100 } },
      },
    );
  });
  afterAll(async () => {
    await h?.close();
  });

  it("refuses creations and revocations past the account's limits with RATE_LIMIT_EXCEEDED and a retry time", async () => {
    await awaitRoomInMinute(h.gw.redis);
    const accountId = (
      await h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.create_account", { request_id: `limits-${randomUUID()}`, name: "Churn Ltd" })
    ).account_id;
    await h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.enable_api_access", { account_id: accountId });
    const create = (name: string) =>
      h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.create_key", { account_id: accountId, mode: "live", name });
    const revoke = (keyId: string) => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.revoke_key", { account_id: accountId, key_id: keyId });
    const keys = [await create("a"), await create("b"), await create("c")];
    const refused = await rejectionOf(create("d"), AppError);
    // The message names the limit that refused: key creations, not the account's request limit.
    expect(refused).toMatchObject({
      code: "RATE_LIMIT_EXCEEDED",
      message: expect.stringContaining("the account's per-minute limit on key creations"),
    });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.list_keys", { account_id: accountId })).keys).toHaveLength(3);

    await revoke(keys[0]!.key.key_id);
    await revoke(keys[1]!.key.key_id);
    expect(await rejectionOf(revoke(keys[2]!.key.key_id), AppError)).toMatchObject({
      code: "RATE_LIMIT_EXCEEDED",
      message: expect.stringContaining("the account's per-minute limit on key revocations"),
    });
    // Another account is not affected.
    const other = (
      await h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.create_account", { request_id: `limits-${randomUUID()}`, name: "Calm Ltd" })
    ).account_id;
    await h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.enable_api_access", { account_id: other });
    await expect(
      h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.create_key", { account_id: other, mode: "live", name: "x" }),
    ).resolves.toMatchObject({
      key: { name: "x" },
    });
  });
});
