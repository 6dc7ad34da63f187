import { AppError } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { describe, expect, it } from "vitest";
import { getBalance } from "./ledger/balance.ts";
import { reconcile } from "./ledger/reconcile.ts";
import { TEST_WEBHOOK_SECRET, useBillingService } from "./test-support/service-fixture.ts";
import { SIGNATURE_HEADER, signPaymentWebhook } from "./webhook/signature.ts";

// The billing service as the rest of the platform sees it: RPCs on billing.rpc and filing events
// on the filing.events exchange, over a real broker, into a real database.
describe("billing service over the bus", () => {
  const service = useBillingService("service");
  const hold = (accountId: string, filingId: string) =>
    service.filing.rpcCall("billing.rpc", "billing.hold", { account_id: accountId, filing_id: filingId, amount_pence: 2000 });
  const balanceOf = (accountId: string) => service.filing.rpcCall("billing.rpc", "billing.get_balance", { account_id: accountId });
  const captures = (filingId: string) => service.db.ledgerEntry.count({ where: { filingId, kind: "capture" } });

  /** The service's own counter of filing events handled, read from GET /metrics. */
  const outcomesHandled = async (labels: string) => {
    const text = await (await fetch(`${service.billing.url}/metrics`)).text();
    const line = text
      .split("\n")
      .find((l) => l.startsWith("billing_filing_outcomes_total{") && labels.split(",").every((label) => l.includes(label)));
    return line ? Number(line.split(" ").at(-1)) : 0;
  };

  it("holds the fee over RPC, shows it in the balance, and is idempotent per filing", async () => {
    const accountId = await service.account(10_000n);
    const first = await hold(accountId, "fil_svc1");
    expect(first).toEqual({ hold_id: expect.stringMatching(/^hold_/), available_pence: 8000 });
    expect(await hold(accountId, "fil_svc1")).toEqual({ hold_id: first.hold_id, available_pence: 8000 });
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: 10_000, held_pence: 2000, available_pence: 8000 });
    expect(await balanceOf("acc_unknown")).toEqual({ account_id: "acc_unknown", balance_pence: 0, held_pence: 0, available_pence: 0 });
  });

  it("five concurrent submits on an account with room for two: exactly two holds, three 402s with the amounts", async () => {
    const accountId = await service.account(5000n);
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => hold(accountId, `fil_five${n}`)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as AppError);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "INSUFFICIENT_BALANCE", httpStatus: 402, retryable: false });
      expect(error.details).toEqual([
        { field: "balance", message: "20.00 GBP required, 10.00 GBP available", required: "20.00", available: "10.00", currency: "GBP" },
      ]);
    }
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 5000, held_pence: 4000, available_pence: 1000 });
  });

  it("releases the hold of a submit that failed before the authority, once", async () => {
    const accountId = await service.account(2000n);
    await hold(accountId, "fil_svc_fail");
    const release = { filing_id: "fil_svc_fail", reason: "tax authority unavailable" };
    expect(await service.filing.rpcCall("billing.rpc", "billing.release", release)).toEqual({ released: true });
    expect(await service.filing.rpcCall("billing.rpc", "billing.release", release)).toEqual({ released: false });
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 2000, held_pence: 0, available_pence: 2000 });
  });

  it("one acceptance and one rejection cost exactly 20.00; an error costs nothing", async () => {
    const accountId = await service.account(10_000n);
    for (const filingId of ["fil_acc", "fil_rej", "fil_err"]) await hold(accountId, filingId);
    await service.publishOutcome("accepted", { filingId: "fil_acc", accountId });
    await service.publishOutcome("rejected", { filingId: "fil_rej", accountId });
    await service.publishOutcome("errored", { filingId: "fil_err", accountId });
    await waitFor(async () => (await service.db.filingOutcomeRecord.count({ where: { accountId } })) === 3, {
      what: "three outcomes applied",
    });
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: 8000, held_pence: 0, available_pence: 8000 });
    expect(await captures("fil_acc")).toBe(1);
    expect(await captures("fil_rej")).toBe(0);
  });

  it("charges once for an acceptance redelivered, duplicated under new message ids, and again after a restart", async () => {
    const accountId = await service.account(4000n);
    await hold(accountId, "fil_dup");
    const before = await outcomesHandled('duplicate="true"');
    const messageId = await service.publishOutcome("accepted", { filingId: "fil_dup", accountId });
    await service.publishOutcome("accepted", { filingId: "fil_dup", accountId }, messageId);
    await service.publishOutcome("accepted", { filingId: "fil_dup", accountId });
    await waitFor(async () => (await outcomesHandled('duplicate="true"')) === before + 2, { what: "both duplicates handled" });
    expect(await captures("fil_dup")).toBe(1);

    // A restarted billing (new process, same database) sees the acceptance once more.
    await service.billing.stop();
    await service.start();
    await service.publishOutcome("accepted", { filingId: "fil_dup", accountId }, messageId);
    await waitFor(async () => (await outcomesHandled('duplicate="true"')) === 1, { what: "the duplicate after the restart handled" });
    expect(await captures("fil_dup")).toBe(1);
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 2000, held_pence: 0, available_pence: 2000 });
    expect((await getBalance(service.db, accountId)).balancePence).toBe(2000n);
  });

  it("takes top-ups from the signed webhook on BILLING_PORT; forged and replayed requests change nothing", async () => {
    const accountId = await service.account(0n);
    const body = JSON.stringify({ payment_id: "pay_svc1", account_id: accountId, amount: "30.00", currency: "GBP", status: "succeeded" });
    const send = (signature: string) =>
      fetch(`${service.billing.url}/webhooks/payments`, {
        method: "POST",
        headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signature },
        body,
      });
    const signature = signPaymentWebhook(TEST_WEBHOOK_SECRET, Math.floor(Date.now() / 1000), body);
    expect(await (await send(signature)).json()).toMatchObject({ received: true, credited: true, duplicate: false });
    expect(await (await send(signature)).json()).toMatchObject({ received: true, credited: false, duplicate: true });
    expect((await send(signPaymentWebhook("forged-forged-forged-forged-forged-xx", Math.floor(Date.now() / 1000), body))).status).toBe(401);
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 3000, available_pence: 3000 });
    // The money is immediately good for a filing.
    expect(await hold(accountId, "fil_after_topup")).toMatchObject({ available_pence: 1000 });
  });

  it("reconcile passes after all of it", async () => {
    expect(await reconcile(service.db)).toMatchObject({ ok: true, problems: [] });
  });
});
