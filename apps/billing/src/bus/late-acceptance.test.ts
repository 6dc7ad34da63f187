import { randomUUID } from "node:crypto";
import { AppError } from "@dormant/contracts";
import { waitFor } from "@dormant/testing";
import { describe, expect, it } from "vitest";
import { topUp } from "../admin/operations.ts";
import { reconcile } from "../ledger/reconcile.ts";
import { useBillingService } from "../test-support/service-fixture.ts";

// A filing that ended error (filing.errored: billing released the hold) and that the authority
// accepted after all: the filing service publishes filing.accepted for the same filing with
// corrects: "error" (issue 11, item 10). Over a real broker into a real database, with two
// billing processes consuming billing.events at once.
describe("late acceptances over the bus", () => {
  const service = useBillingService("late_bus");
  const hold = (accountId: string, filingId: string) =>
    service.filing.rpcCall("billing.rpc", "billing.hold", { account_id: accountId, filing_id: filingId, amount_pence: 2000 });
  const balanceOf = (accountId: string) => service.filing.rpcCall("billing.rpc", "billing.get_balance", { account_id: accountId });
  const outcomesOf = (filingId: string) => service.db.filingOutcomeRecord.count({ where: { filingId } });

  /** A counter of GET /metrics of one billing process, summed over the lines matching every label. */
  const counter = async (url: string, name: string, labels: string[] = []) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    return text
      .split("\n")
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .filter((line) => labels.every((label) => line.includes(label)))
      .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
  };

  it("charges the late acceptance exactly once, whatever is redelivered or duplicated, with two consumers at once", async () => {
    const accountId = await service.account(10_000n);
    await hold(accountId, "fil_bus_late");
    const erroredId = await service.publishOutcome("errored", { filingId: "fil_bus_late", accountId });
    await waitFor(async () => (await balanceOf(accountId)).held_pence === 0, { what: "the hold released on filing.errored" });
    expect(await balanceOf(accountId)).toMatchObject({ balance_pence: 10_000, held_pence: 0, available_pence: 10_000 });

    const second = await service.startAnother();
    try {
      const urls = [service.billing.url, second.url];
      const duplicatesBefore = (
        await Promise.all(urls.map((url) => counter(url, "billing_filing_outcomes_total", ['duplicate="true"'])))
      ).reduce((a, b) => a + b, 0);
      // The late acceptance, its broker redelivery (same message id), two more copies under new
      // message ids, and the old error redelivered: published at once, consumed by both processes.
      const acceptedId = randomUUID();
      await Promise.all([
        service.publishOutcome("accepted", { filingId: "fil_bus_late", accountId, corrects: "error" }, acceptedId),
        service.publishOutcome("accepted", { filingId: "fil_bus_late", accountId, corrects: "error" }, acceptedId),
        service.publishOutcome("accepted", { filingId: "fil_bus_late", accountId, corrects: "error" }),
        service.publishOutcome("accepted", { filingId: "fil_bus_late", accountId, corrects: "error" }),
        service.publishOutcome("errored", { filingId: "fil_bus_late", accountId }, erroredId),
      ]);
      const handled = async () =>
        (await Promise.all(urls.map((url) => counter(url, "billing_filing_outcomes_total", ['duplicate="true"'])))).reduce(
          (a, b) => a + b,
          0,
        );
      await waitFor(async () => (await handled()) === duplicatesBefore + 4, { what: "the four duplicates handled", timeoutMs: 15_000 });

      // Both processes took some of the five (the broker hands them out in turn).
      const perProcess = await Promise.all(urls.map((url) => counter(url, "billing_filing_outcomes_total")));
      expect(perProcess[0]! - 1).toBeGreaterThanOrEqual(1);
      expect(perProcess[1]).toBeGreaterThanOrEqual(1);
      expect(perProcess[0]! - 1 + perProcess[1]!).toBe(5);
      const late = await Promise.all(urls.map((url) => counter(url, "billing_late_captures_total")));
      expect(late.reduce((a, b) => a + b, 0)).toBe(1);
      expect(
        await Promise.all(
          urls.map((url) => counter(url, "billing_filing_outcomes_total", ['effect="captured_late"', 'duplicate="false"'])),
        ),
      ).toContain(1);
    } finally {
      await second.stop();
    }
    expect(await service.db.ledgerEntry.count({ where: { filingId: "fil_bus_late", kind: "capture" } })).toBe(1);
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: 8000, held_pence: 0, available_pence: 8000 });
    expect(await outcomesOf("fil_bus_late")).toBe(2);
  });

  it("an error delivered after the acceptance (out of order) releases and refunds nothing", async () => {
    const accountId = await service.account(5000n);
    await hold(accountId, "fil_bus_ooo");
    await service.publishOutcome("accepted", { filingId: "fil_bus_ooo", accountId, corrects: "error" });
    await waitFor(async () => (await outcomesOf("fil_bus_ooo")) === 1, { what: "the acceptance applied" });
    await service.publishOutcome("errored", { filingId: "fil_bus_ooo", accountId });
    await waitFor(async () => (await outcomesOf("fil_bus_ooo")) === 2, { what: "the error recorded" });
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: 3000, held_pence: 0, available_pence: 3000 });
    expect(await service.db.ledgerEntry.count({ where: { filingId: "fil_bus_ooo", kind: "release" } })).toBe(0);
  });

  it("charges an account that cannot cover it: its balance shows what it owes, holds are refused until a top-up covers it", async () => {
    const accountId = await service.account(2000n);
    await hold(accountId, "fil_bus_debt1");
    await service.publishOutcome("errored", { filingId: "fil_bus_debt1", accountId });
    await waitFor(async () => (await balanceOf(accountId)).held_pence === 0, { what: "the hold released" });
    await hold(accountId, "fil_bus_debt2");
    await service.publishOutcome("accepted", { filingId: "fil_bus_debt2", accountId });
    await waitFor(async () => (await outcomesOf("fil_bus_debt2")) === 1, { what: "the other filing charged" });

    await service.publishOutcome("accepted", { filingId: "fil_bus_debt1", accountId, corrects: "error" });
    await waitFor(async () => (await outcomesOf("fil_bus_debt1")) === 2, { what: "the late acceptance applied" });
    expect(await balanceOf(accountId)).toEqual({ account_id: accountId, balance_pence: -2000, held_pence: 0, available_pence: -2000 });
    expect(await counter(service.billing.url, "billing_late_captures_total", ['covered="false"'])).toBe(1);

    const refused = await hold(accountId, "fil_bus_debt3").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "INSUFFICIENT_BALANCE",
      details: [expect.objectContaining({ required: "20.00", available: "0.00" })],
    });
    // A repeated hold of the filing charged late answers what it is (captured), with nothing available.
    expect(await hold(accountId, "fil_bus_debt1")).toEqual({ hold_id: expect.stringMatching(/^hold_/), available_pence: 0 });

    await topUp(service.db, { accountId, amountPence: 4000n });
    expect(await hold(accountId, "fil_bus_debt3")).toMatchObject({ available_pence: 0 });

    const report = await reconcile(service.db);
    expect(report).toMatchObject({ ok: true, problems: [], warnings: [] });
    expect(report.corrections.map((c) => [c.filing_id, c.how])).toEqual([
      ["fil_bus_late", "after_release"],
      ["fil_bus_ooo", "from_open_hold"],
      ["fil_bus_debt1", "after_release"],
    ]);
  });
});
