import { loadBillingConfig, startBilling, type BillingService } from "@dormant/billing";
import { openAccount, withBillingDb } from "@dormant/billing/admin";
import { BILLING_RPC_QUEUE } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { createTestDatabase, createTestVhost, type TestDatabase, type TestVhost } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, RATE_LIMIT_HEADERS } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// The real billing service, in-process, on a database and vhost of this file's own.
describe("GET /account", () => {
  let vhost: TestVhost;
  let billingDb: TestDatabase;
  let billing: BillingService;
  let gw: TestGateway;

  beforeAll(async () => {
    [vhost, billingDb] = await Promise.all([createTestVhost("gw_account"), createTestDatabase({ label: "gw_account_billing" })]);
    const config = loadBillingConfig({
      NODE_ENV: "test",
      BILLING_DATABASE_URL: billingDb.url,
      AMQP_URL: vhost.url,
      BILLING_PORT: "0",
      BILLING_HOST: "127.0.0.1",
    });
    billing = await startBilling(config, { logger: createLogger({ service: "billing-test", level: "silent" }), migrate: true });
    gw = await createTestGateway({ label: "gw_account", amqpUrl: vhost.url, limits: { rateLimitPerMinute: 120, rateLimitPerDay: 5000 } });
    await withBillingDb(billingDb.url, (db) => openAccount(db, { accountId: gw.account.accountId, openingBalancePence: 10_050 }));
  });
  afterAll(async () => {
    await gw?.close();
    await billing?.stop();
    await billingDb?.drop();
    await vhost?.delete();
  });

  it("shows the live key's account: balance, held, available, currency and the key's limits", async () => {
    await gw.bus.rpcCall(BILLING_RPC_QUEUE, "billing.hold", {
      account_id: gw.account.accountId,
      filing_id: "fil_accounttest1",
      amount_pence: 2000,
    });
    const response = await get(gw.app, "/account", gw.account.liveKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        account_id: gw.account.accountId,
        mode: "live",
        balance: "100.50",
        held: "20.00",
        available: "80.50",
        currency: "GBP",
        rate_limits: { per_minute: 120, per_day: 5000 },
      },
    });
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toBeDefined();
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("shows a test key the same account in test mode", async () => {
    const response = await get(gw.app, "/account", gw.account.testKey);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ account_id: gw.account.accountId, mode: "test", balance: "100.50", currency: "GBP" });
  });

  it("shows zeros for an account billing has never seen", async () => {
    const other = await gw.createAccount({ name: "Unknown To Billing Ltd" });
    const response = await get(gw.app, "/account", other.liveKey);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ account_id: other.accountId, balance: "0.00", held: "0.00", available: "0.00" });
  });

  it("needs a key", async () => {
    const response = await get(gw.app, "/account", "");
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("AUTH_REQUIRED");
  });

  it("answers 503 with Retry-After when billing is not running", async () => {
    await billing.stop();
    const response = await get(gw.app, "/account", gw.account.liveKey);
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(response.headers["retry-after"]).toBe("5");
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toBeDefined();
  });
});
