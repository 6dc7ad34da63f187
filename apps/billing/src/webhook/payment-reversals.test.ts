import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isAppError } from "@dormant/contracts";
import { createLogger, createMetricsRegistry } from "@dormant/service-kit";
import { rejectionOf } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBillingApp } from "../http/app.ts";
import { placeHold } from "../ledger/holds.ts";
import { reconcile } from "../ledger/reconcile.ts";
import { createBillingMetrics } from "../metrics.ts";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { signPaymentWebhook } from "./signature.ts";

const secret = "whsec_reversal_test_0123456789abcdef012345";

// Refunds and disputes through billing's real webhook route, on a real Postgres, signed as the
// provider signs (issue 28): a disputed top-up no longer stays credited.
describe("POST /webhooks/payments: refunds and disputes", () => {
  const ledger = useLedgerDatabase("reversal");
  let server: Server;
  let base: string;

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
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  const send = async (notification: Record<string, unknown>, options: { signed?: boolean } = {}) => {
    const body = JSON.stringify({ currency: "GBP", ...notification });
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.signed !== false) headers["x-payment-signature"] = signPaymentWebhook(secret, Math.floor(Date.now() / 1000), body);
    const res = await fetch(`${base}/webhooks/payments`, { method: "POST", headers, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const paid = async (accountId: string, paymentId: string, amount: string) => {
    const credited = await send({ payment_id: paymentId, account_id: accountId, amount, status: "succeeded" });
    expect(credited.body).toMatchObject({ credited: true });
  };

  it("debits a disputed top-up once, even below zero; holds are then refused; reconcile agrees", async () => {
    const accountId = await ledger.account(1000n, "disp");
    await paid(accountId, "pay_disputed", "50.00");
    await placeHold(ledger.db, { accountId, filingId: "fil_dispute_1", amountPence: 3000n });
    expect(await ledger.totals(accountId)).toEqual({ balance: 6000n, held: 3000n, available: 3000n });

    const dispute = { payment_id: "pay_disputed", account_id: accountId, amount: "50.00", status: "disputed", dispute_id: "dp_1" };
    const first = await send(dispute);
    expect(first).toEqual({
      status: 200,
      body: {
        received: true,
        payment_id: "pay_disputed",
        reversal_id: expect.stringMatching(/^rev_[0-9A-Za-z]{20}$/),
        debited: true,
        duplicate: false,
      },
    });
    // The money is gone: the balance no longer covers what is held, and the account owes 20.00.
    expect(await ledger.totals(accountId)).toEqual({ balance: 1000n, held: 3000n, available: -2000n });

    // The provider's retries (and a concurrent pair) are the same dispute.
    const replays = await Promise.all([send(dispute), send(dispute)]);
    for (const replay of replays) expect(replay).toEqual({ status: 200, body: { ...first.body, debited: false, duplicate: true } });
    expect(await ledger.totals(accountId)).toEqual({ balance: 1000n, held: 3000n, available: -2000n });

    // Nothing more can be held until a top-up covers the debt.
    const refused = await rejectionOf(placeHold(ledger.db, { accountId, filingId: "fil_dispute_2", amountPence: 1n }));
    expect(isAppError(refused) && refused.code).toBe("INSUFFICIENT_BALANCE");

    const entries = await ledger.db.ledgerEntry.findMany({ where: { accountId, kind: "reversal" } });
    expect(entries).toEqual([expect.objectContaining({ balanceDeltaPence: -5000n, heldDeltaPence: 0n, note: "dispute dp_1" })]);
    const report = await reconcile(ledger.db);
    expect(report.problems).toEqual([]);
    expect(report.warnings.join("\n")).toContain(`account ${accountId}: available is -20.00 GBP`);
  });

  it("debits refunds, in part or in full, never more in all than the payment", async () => {
    const accountId = await ledger.account(0n, "refund");
    await paid(accountId, "pay_refunded", "20.00");
    const refund = (refundId: string, amount: string) =>
      send({ payment_id: "pay_refunded", account_id: accountId, amount, status: "refunded", refund_id: refundId });

    expect((await refund("re_1", "5.00")).body).toMatchObject({ debited: true, duplicate: false });
    expect((await ledger.totals(accountId)).balance).toBe(1500n);
    // The same refund id with another amount, and a refund beyond what is left of the payment: refused, nothing changes.
    expect(await refund("re_1", "6.00")).toMatchObject({ status: 409, body: { received: false, error: { code: "payment_conflict" } } });
    expect(await refund("re_2", "15.01")).toMatchObject({ status: 409, body: { error: { code: "payment_conflict" } } });
    expect((await ledger.totals(accountId)).balance).toBe(1500n);
    expect((await refund("re_2", "15.00")).body).toMatchObject({ debited: true });
    expect(await ledger.totals(accountId)).toEqual({ balance: 0n, held: 0n, available: 0n });
    // A dispute of the fully refunded payment would take back more than was paid.
    const disputed = await send({
      payment_id: "pay_refunded",
      account_id: accountId,
      amount: "20.00",
      status: "disputed",
      dispute_id: "dp_2",
    });
    expect(disputed).toMatchObject({ status: 409, body: { error: { code: "payment_conflict" } } });
    expect((await reconcile(ledger.db)).problems).toEqual([]);
  });

  it("refuses a reversal of a payment billing never credited (404, retried), of another account's payment, unsigned or incomplete", async () => {
    const accountId = await ledger.account(0n, "rev_ref");
    const other = await ledger.account(0n, "rev_oth");
    await paid(other, "pay_of_other", "30.00");

    const unknown = await send({ payment_id: "pay_never", account_id: accountId, amount: "1.00", status: "refunded", refund_id: "re_x" });
    expect(unknown).toMatchObject({ status: 404, body: { received: false, error: { code: "unknown_payment" } } });
    const foreign = await send({
      payment_id: "pay_of_other",
      account_id: accountId,
      amount: "1.00",
      status: "disputed",
      dispute_id: "dp_x",
    });
    expect(foreign).toMatchObject({ status: 409, body: { error: { code: "payment_conflict" } } });
    const unsigned = await send(
      { payment_id: "pay_of_other", account_id: other, amount: "30.00", status: "disputed", dispute_id: "dp_y" },
      { signed: false },
    );
    expect(unsigned.status).toBe(401);
    const noId = await send({ payment_id: "pay_of_other", account_id: other, amount: "30.00", status: "refunded" });
    expect(noId).toMatchObject({ status: 400, body: { error: { code: "invalid_payload", details: [{ field: "refund_id" }] } } });
    expect(await ledger.totals(other)).toEqual({ balance: 3000n, held: 0n, available: 3000n });
    expect(await ledger.totals(accountId)).toEqual({ balance: 0n, held: 0n, available: 0n });
  });

  it("reconcile reports a refund without its entry (a row written around applyPaymentReversal)", async () => {
    const accountId = await ledger.account(0n, "rev_rec");
    await paid(accountId, "pay_reconciled", "10.00");
    const topUp = await ledger.db.topUp.findUniqueOrThrow({ where: { paymentId: "pay_reconciled" } });
    await ledger.db.paymentReversal.create({
      data: { id: "rev_00000000000000000001", kind: "refund", providerId: "re_lost", topUpId: topUp.id, accountId, amountPence: 400n },
    });
    const report = await reconcile(ledger.db);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([`refund re_lost: 4.00 GBP from ${accountId} but 0 reversal entries take 0.00 GBP from it`]);
  });
});
