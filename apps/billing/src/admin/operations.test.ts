import { describe, expect, it } from "vitest";
import { placeHold } from "../ledger/holds.ts";
import { applyFilingOutcome } from "../ledger/apply-filing-outcome.ts";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { getBalance, listLedger, openAccount, reconcile, topUp } from "./operations.ts";
import { withBillingDb } from "./with-billing-db.ts";

describe("admin operations", () => {
  const ledger = useLedgerDatabase("admin_ops");

  it("opens an account, tops it up, and shows balance and ledger as GBP strings", async () => {
    expect(await openAccount(ledger.db, { accountId: "acc_ops1", openingBalancePence: 10_000n, name: "Ops Ltd" })).toEqual({
      account_id: "acc_ops1",
      balance: "100.00",
      held: "0.00",
      available: "100.00",
      created: true,
    });
    expect(await openAccount(ledger.db, { accountId: "acc_ops1", openingBalancePence: 10_000 })).toMatchObject({
      created: false,
      balance: "100.00",
    });

    const topped = await topUp(ledger.db, { accountId: "acc_ops1", amountPence: 2550, paymentId: "inv-1" });
    expect(topped).toEqual({
      account_id: "acc_ops1",
      balance: "125.50",
      held: "0.00",
      available: "125.50",
      payment_id: "inv-1",
      top_up_id: expect.stringMatching(/^top_/),
      amount: "25.50",
      duplicate: false,
    });
    expect(await topUp(ledger.db, { accountId: "acc_ops1", amountPence: 2550n, paymentId: "inv-1" })).toMatchObject({
      duplicate: true,
      balance: "125.50",
    });
    expect((await topUp(ledger.db, { accountId: "acc_ops1", amountPence: 50n })).payment_id).toMatch(/^admin_[0-9a-f-]{36}$/);

    await placeHold(ledger.db, { accountId: "acc_ops1", filingId: "fil_ops1", amountPence: 2000n });
    await applyFilingOutcome(ledger.db, {
      filingId: "fil_ops1",
      accountId: "acc_ops1",
      outcome: "accepted",
      messageId: "m1",
      occurredAt: new Date(),
      feePence: 2000n,
    });
    await placeHold(ledger.db, { accountId: "acc_ops1", filingId: "fil_ops2", amountPence: 2000n });

    expect(await getBalance(ledger.db, "acc_ops1")).toEqual({
      account_id: "acc_ops1",
      balance: "106.00",
      held: "20.00",
      available: "86.00",
    });
    const statement = await listLedger(ledger.db, { accountId: "acc_ops1" });
    expect(statement).toMatchObject({ account_id: "acc_ops1", balance: "106.00", held: "20.00", available: "86.00" });
    expect(
      statement.entries.map((e) => [
        e.kind,
        e.balance_delta,
        e.held_delta,
        e.balance_after,
        e.held_after,
        e.filing_id,
        e.payment_id,
        e.top_up_source,
      ]),
    ).toEqual([
      ["credit", "100.00", "0.00", "100.00", "0.00", null, "opening_acc_ops1", "opening"],
      ["credit", "25.50", "0.00", "125.50", "0.00", null, "inv-1", "admin"],
      ["credit", "0.50", "0.00", "126.00", "0.00", null, expect.stringMatching(/^admin_/), "admin"],
      ["hold", "0.00", "20.00", "126.00", "20.00", "fil_ops1", null, null],
      ["capture", "-20.00", "-20.00", "106.00", "0.00", "fil_ops1", null, null],
      ["hold", "0.00", "20.00", "106.00", "20.00", "fil_ops2", null, null],
    ]);
    expect(statement.entries[4]!.note).toBe("filing accepted");
    // The latest entries only, with running totals that still count everything before them.
    const latest = await listLedger(ledger.db, { accountId: "acc_ops1", limit: 2 });
    expect(latest.entries.map((e) => [e.kind, e.balance_after, e.held_after])).toEqual([
      ["capture", "106.00", "0.00"],
      ["hold", "106.00", "20.00"],
    ]);
    expect(await reconcile(ledger.db)).toMatchObject({ ok: true, problems: [] });
  });

  it("answers NOT_FOUND for an account billing does not have", async () => {
    await expect(getBalance(ledger.db, "acc_missing")).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'No billing account "acc_missing"',
    });
    await expect(listLedger(ledger.db, { accountId: "acc_missing" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(topUp(ledger.db, { accountId: "acc_missing", amountPence: 100 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("withBillingDb works on the already migrated database and disconnects after", async () => {
    const balance = await withBillingDb(ledger.url, (db) => getBalance(db, "acc_ops1"));
    expect(balance.balance).toBe("106.00");
  });
});
