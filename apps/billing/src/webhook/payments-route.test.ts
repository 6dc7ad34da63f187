import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, createMetricsRegistry } from "@dormant/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBillingApp } from "../http/app.ts";
import { reconcile } from "../ledger/reconcile.ts";
import { createBillingMetrics } from "../metrics.ts";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { signPaymentWebhook } from "./signature.ts";

const secret = "whsec_route_test_0123456789abcdef0123456789";

describe("POST /webhooks/payments", () => {
  const ledger = useLedgerDatabase("webhook");
  let server: Server;
  let base: string;
  let accountId: string;

  beforeAll(async () => {
    const registry = createMetricsRegistry("billing-test");
    const app = createBillingApp({
      db: ledger.db,
      logger: createLogger({ service: "billing-test", level: "silent" }),
      registry,
      metrics: createBillingMetrics(registry),
      webhook: { secret, toleranceSeconds: 300 },
      checks: {},
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    accountId = await ledger.account(1000n, "hook");
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  const now = () => Math.floor(Date.now() / 1000);
  const payment = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({ payment_id: "pay_hook1", account_id: accountId, amount: "50.00", currency: "GBP", status: "succeeded", ...overrides });
  const post = async (body: string, signature: string | null, contentType = "application/json") => {
    const headers: Record<string, string> = { "content-type": contentType };
    if (signature !== null) headers["x-payment-signature"] = signature;
    const res = await fetch(`${base}/webhooks/payments`, { method: "POST", headers, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const balance = async () => (await ledger.totals(accountId)).balance;

  it("credits a correctly signed payment once; the same signed request replayed is a duplicate", async () => {
    const body = payment();
    const signature = signPaymentWebhook(secret, now(), body);
    const first = await post(body, signature);
    expect(first).toEqual({
      status: 200,
      body: { received: true, payment_id: "pay_hook1", top_up_id: expect.stringMatching(/^top_/), credited: true, duplicate: false },
    });
    expect(await balance()).toBe(6000n);

    const replays = await Promise.all([post(body, signature), post(body, signature)]);
    for (const replay of replays) {
      expect(replay).toEqual({ status: 200, body: { ...first.body, credited: false, duplicate: true } });
    }
    // Re-signed later by the provider (its own retry): still the same payment.
    expect((await post(body, signPaymentWebhook(secret, now() + 5, body))).body).toMatchObject({ duplicate: true });
    expect(await balance()).toBe(6000n);
  });

  it("refuses forged, tampered, unsigned and stale requests without changing anything", async () => {
    const body = payment({ payment_id: "pay_forged", amount: "900.00" });
    const forged = await post(body, signPaymentWebhook("an-attacker-guess-an-attacker-guess", now(), body));
    expect(forged).toEqual({
      status: 401,
      body: {
        received: false,
        error: { code: "invalid_signature", message: "The x-payment-signature header is not a valid signature of this body" },
      },
    });
    const tampered = await post(payment({ payment_id: "pay_forged", amount: "9000.00" }), signPaymentWebhook(secret, now(), body));
    expect(tampered.status).toBe(401);
    const unsigned = await post(body, null);
    expect(unsigned).toMatchObject({
      status: 401,
      body: { error: { code: "invalid_signature", message: "The x-payment-signature header is missing" } },
    });
    const malformed = await post(body, "sha256=abc");
    expect(malformed.status).toBe(401);
    // A genuine request captured and replayed after the tolerance.
    const stale = await post(body, signPaymentWebhook(secret, now() - 301, body));
    expect(stale).toMatchObject({ status: 401, body: { error: { code: "stale_timestamp" } } });
    expect(await ledger.db.topUp.findUnique({ where: { paymentId: "pay_forged" } })).toBeNull();
    expect(await balance()).toBe(6000n);
  });

  it("refuses a signed notification that is not valid, or for an unknown account, or reusing a payment id", async () => {
    const sign = (body: string) => signPaymentWebhook(secret, now(), body);
    const notJson = "not json";
    expect(await post(notJson, sign(notJson))).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_payload", message: "The body is not JSON" } },
    });

    const invalid = payment({ payment_id: "pay_bad", amount: 50, currency: "EUR" });
    const refused = await post(invalid, sign(invalid));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      received: false,
      error: {
        code: "invalid_payload",
        details: expect.arrayContaining([expect.objectContaining({ field: "amount" }), { field: "currency", message: 'must be "GBP"' }]),
      },
    });
    for (const amount of ["0.00", "-5.00", "5.001", "1e3"]) {
      const body = payment({ payment_id: "pay_bad", amount });
      expect((await post(body, sign(body))).status, amount).toBe(400);
    }

    const stranger = payment({ payment_id: "pay_stranger", account_id: "acc_nobody" });
    expect(await post(stranger, sign(stranger))).toMatchObject({ status: 404, body: { error: { code: "unknown_account" } } });

    const reused = payment({ amount: "49.00" });
    expect(await post(reused, sign(reused))).toMatchObject({ status: 409, body: { error: { code: "payment_conflict" } } });
    expect(await balance()).toBe(6000n);
  });

  it("acknowledges payments that did not succeed without crediting them", async () => {
    const failed = payment({ payment_id: "pay_failed", status: "failed" });
    expect(await post(failed, signPaymentWebhook(secret, now(), failed))).toEqual({
      status: 200,
      body: { received: true, payment_id: "pay_failed", credited: false, duplicate: false },
    });
    expect(await ledger.db.topUp.findUnique({ where: { paymentId: "pay_failed" } })).toBeNull();
    expect(await balance()).toBe(6000n);
  });

  it("refuses bodies over 16 KB, and the ledger still reconciles after all of the above", async () => {
    const huge = payment({ padding: "x".repeat(17 * 1024) });
    expect(await post(huge, signPaymentWebhook(secret, now(), huge))).toMatchObject({
      status: 413,
      body: { error: { code: "payload_too_large" } },
    });
    expect(await reconcile(ledger.db)).toMatchObject({ ok: true, problems: [] });
  });
});
