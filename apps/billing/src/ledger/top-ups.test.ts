import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { applyTopUp } from "./top-ups.ts";

describe("top-ups", () => {
  const ledger = useLedgerDatabase("topups");

  it("credits a payment once, whatever is retried, and says so", async () => {
    const accountId = await ledger.account(0n);
    const first = await applyTopUp(ledger.db, { accountId, amountPence: 5000n, paymentId: "pay_t1", source: "webhook" });
    expect(first).toEqual({
      topUpId: expect.stringMatching(/^top_/),
      paymentId: "pay_t1",
      accountId,
      amountPence: 5000n,
      duplicate: false,
    });
    const retries = await Promise.all(
      [1, 2, 3].map(() => applyTopUp(ledger.db, { accountId, amountPence: 5000n, paymentId: "pay_t1", source: "webhook" })),
    );
    for (const retry of retries) expect(retry).toEqual({ ...first, duplicate: true });
    expect(await ledger.totals(accountId)).toEqual({ balance: 5000n, held: 0n, available: 5000n });
    const entries = await ledger.db.ledgerEntry.findMany({ where: { accountId } });
    expect(entries).toEqual([
      expect.objectContaining({ kind: "credit", balanceDeltaPence: 5000n, heldDeltaPence: 0n, topUpId: first.topUpId, filingId: null }),
    ]);
  });

  it("refuses a payment id reused for another account or amount, and an unknown account, changing nothing", async () => {
    const accountId = await ledger.account(0n);
    const other = await ledger.account(0n);
    await applyTopUp(ledger.db, { accountId, amountPence: 1000n, paymentId: "pay_t2", source: "admin" });
    await expect(
      applyTopUp(ledger.db, { accountId: other, amountPence: 1000n, paymentId: "pay_t2", source: "admin" }),
    ).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_CONFLICT",
    });
    await expect(applyTopUp(ledger.db, { accountId, amountPence: 1001n, paymentId: "pay_t2", source: "admin" })).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_CONFLICT",
    });
    await expect(
      applyTopUp(ledger.db, { accountId: "acc_nobody", amountPence: 1000n, paymentId: "pay_t3", source: "webhook" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await ledger.db.topUp.findUnique({ where: { paymentId: "pay_t3" } })).toBeNull();
    expect(await ledger.totals(accountId)).toMatchObject({ balance: 1000n });
    expect(await ledger.totals(other)).toMatchObject({ balance: 0n });
  });

  it("refuses amounts that are not positive or too large", async () => {
    const accountId = await ledger.account(0n);
    await expect(applyTopUp(ledger.db, { accountId, amountPence: 0n, paymentId: "pay_t4", source: "admin" })).rejects.toThrow(RangeError);
    await expect(applyTopUp(ledger.db, { accountId, amountPence: 10n ** 15n, paymentId: "pay_t5", source: "admin" })).rejects.toThrow(
      RangeError,
    );
    expect(await ledger.db.topUp.count({ where: { accountId } })).toBe(0);
  });
});
