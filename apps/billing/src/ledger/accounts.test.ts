import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { openAccount } from "./accounts.ts";

describe("opening accounts", () => {
  const ledger = useLedgerDatabase("accounts");

  it("records the opening balance as one credit, and opening again changes nothing", async () => {
    const opened = await openAccount(ledger.db, { accountId: "acc_open1", openingBalancePence: 10_050n, name: "Open Ltd" });
    expect(opened).toEqual({ accountId: "acc_open1", created: true, openingTopUpId: expect.stringMatching(/^top_/) });
    const again = await Promise.all([
      openAccount(ledger.db, { accountId: "acc_open1", openingBalancePence: 10_050n }),
      openAccount(ledger.db, { accountId: "acc_open1", openingBalancePence: 10_050n }),
    ]);
    for (const result of again) expect(result).toEqual({ ...opened, created: false });
    expect(await ledger.totals("acc_open1")).toEqual({ balance: 10_050n, held: 0n, available: 10_050n });
    expect(await ledger.db.topUp.findMany({ where: { accountId: "acc_open1" } })).toEqual([
      expect.objectContaining({ paymentId: "opening_acc_open1", amountPence: 10_050n, source: "opening" }),
    ]);
    expect(await ledger.db.account.findUnique({ where: { id: "acc_open1" } })).toMatchObject({ name: "Open Ltd" });
  });

  it("opens an account with nothing, and refuses to reopen any account with another opening balance", async () => {
    expect(await openAccount(ledger.db, { accountId: "acc_open2", openingBalancePence: 0n })).toEqual({
      accountId: "acc_open2",
      created: true,
      openingTopUpId: null,
    });
    expect(await ledger.db.ledgerEntry.count({ where: { accountId: "acc_open2" } })).toBe(0);
    await expect(openAccount(ledger.db, { accountId: "acc_open2", openingBalancePence: 500n })).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_CONFLICT",
    });
    await expect(openAccount(ledger.db, { accountId: "acc_open1", openingBalancePence: 1n })).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_CONFLICT",
    });
    expect(await ledger.totals("acc_open2")).toMatchObject({ balance: 0n });
  });

  it("validates the id and the amount", async () => {
    await expect(openAccount(ledger.db, { accountId: "acc bad", openingBalancePence: 0n })).rejects.toThrow(/letters, digits/);
    await expect(openAccount(ledger.db, { accountId: "acc_neg", openingBalancePence: -1n })).rejects.toThrow(/negative/);
    expect(await ledger.db.account.findUnique({ where: { id: "acc_neg" } })).toBeNull();
  });
});
