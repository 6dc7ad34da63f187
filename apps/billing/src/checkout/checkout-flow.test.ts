import { type SimServer, startTestSim } from "@dormant/authority-sim/testing";
import { AppError } from "@dormant/contracts";
import { getFreePort } from "@dormant/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_WEBHOOK_SECRET, useBillingService } from "../test-support/service-fixture.ts";
import { SIGNATURE_HEADER, signPaymentWebhook } from "../webhook/signature.ts";

const PROVIDER_KEY = "checkout-flow-test-provider-key-0123";
const SUCCESS_URL = "http://127.0.0.1:3999/account/top-up/done";
const CANCEL_URL = "http://127.0.0.1:3999/account/top-up/cancelled";

// A top-up end to end: billing.create_checkout over a real broker, the payment provider's local
// stand-in (the authority simulator's, over HTTP) serving the checkout page and sending the signed
// payment webhook to billing's real POST /webhooks/payments, into a real database.
describe("top-up through the provider's checkout", () => {
  let sim: SimServer;
  let billingPort = 0;
  beforeAll(async () => {
    billingPort = await getFreePort();
    sim = await startTestSim({
      paymentProvider: {
        apiKey: PROVIDER_KEY,
        webhookUrl: `http://127.0.0.1:${billingPort}/webhooks/payments`,
        webhookSecret: TEST_WEBHOOK_SECRET,
        webhookTimeoutMs: 5000,
        maxSessions: 100,
      },
    });
    return () => sim.close(0).catch(() => undefined); // the last test closed it already
  });
  const service = useBillingService("checkout", {
    env: () => ({
      BILLING_PORT: String(billingPort),
      PAYMENT_PROVIDER_URL: `${sim.url}/payment-provider/v1`,
      PAYMENT_PROVIDER_API_KEY: PROVIDER_KEY,
    }),
  });

  const checkout = (accountId: string, amountPence: number) =>
    service.filing.rpcCall("billing.rpc", "billing.create_checkout", {
      account_id: accountId,
      amount_pence: amountPence,
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
    });
  const balanceOf = (accountId: string) => service.filing.rpcCall("billing.rpc", "billing.get_balance", { account_id: accountId });
  const ledgerOf = (accountId: string) =>
    service.filing.rpcCall("billing.rpc", "billing.list_ledger", { account_id: accountId, limit: 100, offset: 0 });
  const pay = (checkoutUrl: string) => fetch(`${checkoutUrl}/pay`, { method: "POST", redirect: "manual" });

  it("creates a checkout, shows its page, credits the payment once however often Pay is pressed", async () => {
    const accountId = await service.account(1000n);
    const session = await checkout(accountId, 2550);
    expect(session).toEqual({
      checkout_id: expect.stringMatching(/^cs_/),
      checkout_url: `${sim.url}/payment-provider/checkout/${session.checkout_id}`,
      amount_pence: 2550,
    });
    expect(await service.db.checkout.findUniqueOrThrow({ where: { id: session.checkout_id } })).toMatchObject({
      accountId,
      amountPence: 2550n,
      state: "open",
      paymentId: null,
    });
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 1000 });

    const page = await fetch(session.checkout_url);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await page.text();
    expect(html).toContain("Pay £25.50");
    expect(html).toContain("Local stand-in of the payment provider");
    expect(html).not.toContain("<script");

    const paid = await pay(session.checkout_url);
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(SUCCESS_URL);
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: 3550, held_pence: 0, available_pence: 3550 });
    const recorded = await service.db.checkout.findUniqueOrThrow({ where: { id: session.checkout_id } });
    expect(recorded).toMatchObject({ state: "paid", paymentId: expect.stringMatching(/^pay_/) });
    const [credit] = (await ledgerOf(accountId)).lines;
    expect(credit).toMatchObject({
      kind: "credit",
      balance_delta_pence: 2550,
      top_up: { source: "payment", payment_id: recorded.paymentId },
    });

    // Pressing Pay again (or twice at once) sends no second payment.
    const again = await Promise.all([pay(session.checkout_url), pay(session.checkout_url)]);
    expect(again.map((r) => [r.status, r.headers.get("location")])).toEqual([
      [303, SUCCESS_URL],
      [303, SUCCESS_URL],
    ]);
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 3550 });
    expect((await ledgerOf(accountId)).lines.filter((l) => l.kind === "credit")).toHaveLength(2);
  });

  it("a payment the provider then refunds in part and the payer disputes: debited through the signed webhook, holds refused", async () => {
    const accountId = await service.account(0n);
    const session = await checkout(accountId, 5000);
    expect((await pay(session.checkout_url)).status).toBe(303);
    const paymentId = (await service.db.checkout.findUniqueOrThrow({ where: { id: session.checkout_id } })).paymentId ?? "";
    expect(
      await service.filing.rpcCall("billing.rpc", "billing.hold", { account_id: accountId, filing_id: "fil_before", amount_pence: 3000 }),
    ).toMatchObject({ available_pence: 2000 });
    const reverse = (kind: "refunds" | "disputes", body: Record<string, unknown>) =>
      fetch(`${sim.url}/payment-provider/v1/payments/${paymentId}/${kind}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${PROVIDER_KEY}` },
        body: JSON.stringify(body),
      });

    const refund = await reverse("refunds", { amount: "10.00" });
    expect(await refund.json()).toMatchObject({ billing_notified: true });
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: 4000, held_pence: 3000, available_pence: 1000 });
    // The payer disputes the rest (40.00): the account now owes 30.00 and nothing can be held.
    const dispute = await reverse("disputes", {});
    const disputed = (await dispute.json()) as { id: string; billing_notified: boolean };
    expect(disputed.billing_notified).toBe(true);
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: 0, held_pence: 3000, available_pence: -3000 });
    // Sent again (the provider's retry): nothing more taken.
    expect(await (await reverse("disputes", { id: disputed.id })).json()).toMatchObject({ billing_notified: true });
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 0 });
    const refused = await service.filing
      .rpcCall("billing.rpc", "billing.hold", { account_id: accountId, filing_id: "fil_after", amount_pence: 1 })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    const lines = (await ledgerOf(accountId)).lines;
    expect(lines.filter((line) => line.kind === "reversal")).toEqual([
      expect.objectContaining({
        balance_delta_pence: -4000,
        held_delta_pence: 0,
        reversal: { kind: "dispute", provider_id: disputed.id, payment_id: paymentId },
      }),
      expect.objectContaining({ balance_delta_pence: -1000, reversal: expect.objectContaining({ kind: "refund", payment_id: paymentId }) }),
    ]);
  });

  it("cancel: back to the cancel URL, nothing credited, and the checkout cannot be paid afterwards", async () => {
    const accountId = await service.account(0n);
    const session = await checkout(accountId, 500);
    const cancelled = await fetch(`${session.checkout_url}/cancel`, { redirect: "manual" });
    expect([cancelled.status, cancelled.headers.get("location")]).toEqual([303, CANCEL_URL]);
    expect((await pay(session.checkout_url)).status).toBe(409);
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 0 });
    expect(await service.db.checkout.findUniqueOrThrow({ where: { id: session.checkout_id } })).toMatchObject({ state: "open" });
  });

  it("refuses a payment webhook that does not match its checkout's account or amount", async () => {
    const accountId = await service.account(0n);
    const session = await checkout(accountId, 1000);
    const body = JSON.stringify({
      payment_id: "pay_mismatch1",
      account_id: accountId,
      amount: "99.00",
      currency: "GBP",
      status: "succeeded",
      checkout_id: session.checkout_id,
    });
    const response = await fetch(`${service.billing.url}/webhooks/payments`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: signPaymentWebhook(TEST_WEBHOOK_SECRET, Math.floor(Date.now() / 1000), body),
      },
      body,
    });
    expect(response.status).toBe(409);
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 0 });
    expect(await service.db.checkout.findUniqueOrThrow({ where: { id: session.checkout_id } })).toMatchObject({ state: "open" });
  });

  it("refuses amounts the contract refuses, and accounts billing has not opened", async () => {
    const accountId = await service.account(0n);
    for (const amount of [0, 499, 1_000_001, 10.5, -500]) {
      await expect(checkout(accountId, amount), String(amount)).rejects.toMatchObject({ reason: "invalid_message" });
    }
    const unknown = await checkout("acc_neverOpened", 500).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(AppError);
    expect(unknown).toMatchObject({ code: "NOT_FOUND", retryable: false });
    expect(await service.db.checkout.count({ where: { accountId } })).toBe(0);
  });

  it("provider down: a retryable SERVICE_UNAVAILABLE, nothing recorded", async () => {
    const accountId = await service.account(0n);
    await sim.close(0);
    const refusal = await checkout(accountId, 500).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      retryable: true,
      message: "The payment provider could not be reached; retry shortly",
    });
    expect(await service.db.checkout.count({ where: { accountId } })).toBe(0);
  });
});
