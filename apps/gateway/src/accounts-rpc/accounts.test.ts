import { AppError, GATEWAY_RPC_QUEUE, GatewayAccount } from "@dormant/contracts";
import { rejectionOf } from "@dormant/testing";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayRpcHarness, type GatewayRpcHarness } from "../test-support/gateway-rpc-harness.ts";

const requestId = () => `signup-${randomUUID()}`;

describe("gateway.rpc accounts (create_account, get_account, enable_api_access) on a test vhost", () => {
  let h: GatewayRpcHarness;
  beforeAll(async () => {
    h = await createGatewayRpcHarness("accounts");
  });
  afterAll(async () => {
    await h?.close();
  });

  const call = {
    create: (request_id: string, name = "Dashboard Formations Ltd") =>
      h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.create_account", { request_id, name }),
    get: (account_id: string) => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.get_account", { account_id }),
    enable: (account_id: string) => h.client.rpcCall(GATEWAY_RPC_QUEUE, "gateway.enable_api_access", { account_id }),
  };

  it("creates an account with API access off, no keys, no opening balance, and opens its billing side with zero", async () => {
    const before = h.openAccountCalls.length;
    const account = await call.create(requestId(), "  Dashboard Formations Ltd ");
    expect(GatewayAccount.parse(account)).toEqual({
      account_id: expect.stringMatching(/^acc_[A-Za-z0-9]{16}$/),
      name: "Dashboard Formations Ltd",
      api_access_enabled: false,
      created_at: expect.any(String),
    });
    expect(h.openAccountCalls.slice(before)).toEqual([
      { account_id: account.account_id, name: "Dashboard Formations Ltd", opening_balance_pence: 0 },
    ]);
    const row = await h.gw.db.account.findUniqueOrThrow({ where: { id: account.account_id }, include: { apiKeys: true } });
    expect(row).toMatchObject({
      apiAccessEnabled: false,
      openingBalancePence: 0n,
      rateLimitPerMinute: null,
      rateLimitPerDay: null,
      apiKeys: [],
    });
    expect(await call.get(account.account_id)).toEqual(account);
  });

  it("is idempotent per request_id: the same account again (billing asked again, idempotently), concurrent calls too", async () => {
    const id = requestId();
    const first = await call.create(id);
    const again = await call.create(id, "Another Name Ltd");
    expect(again).toEqual(first);
    const concurrentId = requestId();
    const concurrent = await Promise.all([call.create(concurrentId), call.create(concurrentId), call.create(concurrentId)]);
    expect(new Set(concurrent.map((a) => a.account_id)).size).toBe(1);
    expect(await h.gw.db.account.count({ where: { creationRequestId: { in: [id, concurrentId] } } })).toBe(2);
    expect(h.openAccountCalls.filter((c) => c.account_id === first.account_id)).toHaveLength(2);
  });

  it("answers billing's refusal as retryable, and a retry with the same request_id finishes the sign-up", async () => {
    const id = requestId();
    h.failNextOpenAccounts(1);
    const error = await rejectionOf(call.create(id), AppError);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true });
    const [half] = await h.gw.db.account.findMany({ where: { creationRequestId: id } });
    expect(half?.apiAccessEnabled).toBe(false);
    const retried = await call.create(id);
    expect(retried.account_id).toBe(half?.id);
    const calls = h.openAccountCalls.filter((c) => c.account_id === retried.account_id);
    expect(calls).toHaveLength(2);
    expect(await h.gw.db.account.count({ where: { creationRequestId: id } })).toBe(1);
  });

  it("enables API access idempotently; accounts of admin create-account have it already", async () => {
    const account = await call.create(requestId());
    const enabled = await call.enable(account.account_id);
    expect(enabled).toEqual({ ...account, api_access_enabled: true });
    expect(await call.enable(account.account_id)).toEqual(enabled);
    expect(await call.get(account.account_id)).toEqual(enabled);
    expect((await call.get(h.gw.account.accountId)).api_access_enabled).toBe(true);
  });

  it("answers NOT_FOUND for an unknown account", async () => {
    for (const attempt of [call.get, call.enable]) {
      expect(await rejectionOf(attempt("acc_unknown0000000000"), AppError)).toMatchObject({ code: "NOT_FOUND", retryable: false });
    }
  });
});
