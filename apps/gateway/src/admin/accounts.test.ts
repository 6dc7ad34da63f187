import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayTestEnv } from "../test-support/test-env.ts";
import type { GatewayTestEnv } from "../test-support/test-env.ts";
import { createAccount, listAccounts, MAX_OPENING_BALANCE_PENCE } from "./accounts.ts";

describe("createAccount", () => {
  let env: GatewayTestEnv;
  beforeAll(async () => {
    env = await createGatewayTestEnv("accounts");
  });
  afterAll(async () => env?.close());

  it("writes the account and one live and one test key", async () => {
    const created = await createAccount(
      env.db,
      { name: "  Trimmed Ltd ", openingBalancePence: 2_000n, rateLimitPerDay: 50 },
      { hasher: env.hasher },
    );
    const account = await env.db.account.findUniqueOrThrow({ where: { id: created.accountId }, include: { apiKeys: true } });
    expect(account).toMatchObject({ name: "Trimmed Ltd", openingBalancePence: 2_000n, rateLimitPerMinute: null, rateLimitPerDay: 50 });
    expect(account.apiKeys.map((k) => k.mode).sort()).toEqual(["live", "test"]);
    expect(created.liveKey).toMatch(/^api_live_/);
    expect(created.testKey).toMatch(/^api_test_/);
  });

  it.each([
    ["an empty name", { name: " ", openingBalancePence: 0n }],
    ["a negative balance", { name: "X", openingBalancePence: -1n }],
    ["a balance beyond the bound", { name: "X", openingBalancePence: MAX_OPENING_BALANCE_PENCE + 1n }],
    ["a zero limit", { name: "X", openingBalancePence: 0n, rateLimitPerMinute: 0 }],
    ["a fractional limit", { name: "X", openingBalancePence: 0n, rateLimitPerDay: 1.5 }],
  ])("refuses %s and writes nothing", async (_, input) => {
    const before = (await listAccounts(env.db)).length;
    await expect(createAccount(env.db, input, { hasher: env.hasher })).rejects.toThrow();
    expect(await listAccounts(env.db)).toHaveLength(before);
  });
});
