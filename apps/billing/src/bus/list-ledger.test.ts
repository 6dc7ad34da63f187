import { waitFor } from "@dormant/testing";
import { describe, expect, it } from "vitest";
import { applyTopUp } from "../ledger/top-ups.ts";
import { useBillingService } from "../test-support/service-fixture.ts";

// billing.list_ledger over a real broker, from a real database: every kind of entry, newest first, paged.
describe("billing.list_ledger", () => {
  const service = useBillingService("list_ledger");
  const list = (accountId: string, limit: number, offset = 0) =>
    service.filing.rpcCall("billing.rpc", "billing.list_ledger", { account_id: accountId, limit, offset });
  const hold = (accountId: string, filingId: string) =>
    service.filing.rpcCall("billing.rpc", "billing.hold", { account_id: accountId, filing_id: filingId, amount_pence: 2000 });

  it("lists credits, holds, releases and captures newest first, with the top-up's source and payment id", async () => {
    const accountId = await service.account(10_000n);
    const other = await service.account(7000n);
    await hold(accountId, "fil_ledgerRel");
    await service.filing.rpcCall("billing.rpc", "billing.release", { filing_id: "fil_ledgerRel", reason: "tax authority unavailable" });
    await hold(accountId, "fil_ledgerCap");
    await service.publishOutcome("accepted", { filingId: "fil_ledgerCap", accountId });
    await waitFor(async () => (await service.db.ledgerEntry.count({ where: { filingId: "fil_ledgerCap", kind: "capture" } })) === 1, {
      what: "the capture",
    });
    await applyTopUp(service.db, { accountId, amountPence: 2500n, paymentId: "pay_ledger1", source: "webhook" });

    const page = await list(accountId, 10);
    expect(page.pagination).toEqual({ total: 6, limit: 10, offset: 0, has_more: false });
    expect(page.lines.map((l) => [l.kind, l.balance_delta_pence, l.held_delta_pence, l.filing_id, l.top_up])).toEqual([
      ["credit", 2500, 0, null, { source: "payment", payment_id: "pay_ledger1" }],
      ["capture", -2000, -2000, "fil_ledgerCap", null],
      ["hold", 0, 2000, "fil_ledgerCap", null],
      ["release", 0, -2000, "fil_ledgerRel", null],
      ["hold", 0, 2000, "fil_ledgerRel", null],
      ["credit", 10_000, 0, null, { source: "opening", payment_id: `opening_${accountId}` }],
    ]);
    expect(page.lines[3]?.note).toBe("tax authority unavailable");
    const ids = page.lines.map((l) => BigInt(l.entry_id));
    expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
    expect(Date.parse(page.lines[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(page.lines[5]!.created_at));
    // Another account's lines never appear.
    expect((await list(other, 100)).lines.map((l) => l.kind)).toEqual(["credit"]);
  });

  it("pages: limit and offset, has_more, the total on every page; an unknown account has an empty ledger", async () => {
    const accountId = await service.account(0n);
    for (let n = 1; n <= 5; n++)
      await applyTopUp(service.db, { accountId, amountPence: BigInt(n * 100), paymentId: `pay_page${n}`, source: "admin" });
    const first = await list(accountId, 2);
    const second = await list(accountId, 2, 2);
    const last = await list(accountId, 2, 4);
    expect(first.lines.map((l) => l.balance_delta_pence)).toEqual([500, 400]);
    expect(second.lines.map((l) => l.balance_delta_pence)).toEqual([300, 200]);
    expect(last.lines.map((l) => l.balance_delta_pence)).toEqual([100]);
    expect([first, second, last].map((p) => p.pagination)).toEqual([
      { total: 5, limit: 2, offset: 0, has_more: true },
      { total: 5, limit: 2, offset: 2, has_more: true },
      { total: 5, limit: 2, offset: 4, has_more: false },
    ]);
    expect(first.lines[0]?.top_up).toEqual({ source: "admin", payment_id: "pay_page5" });
    expect(await list(accountId, 2, 10)).toEqual({ lines: [], pagination: { total: 5, limit: 2, offset: 10, has_more: false } });
    expect(await list("acc_nobodyHere", 10)).toEqual({ lines: [], pagination: { total: 0, limit: 10, offset: 0, has_more: false } });
  });

  it("refuses a page the contract refuses", async () => {
    await expect(list("acc_x", 0)).rejects.toMatchObject({ reason: "invalid_message" });
    await expect(list("acc_x", 101)).rejects.toMatchObject({ reason: "invalid_message" });
    await expect(list("acc_x", 10, -1)).rejects.toMatchObject({ reason: "invalid_message" });
  });
});
