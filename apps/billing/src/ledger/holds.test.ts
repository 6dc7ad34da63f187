import { AppError } from "@dormant/contracts";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { placeHold, releaseHold } from "./holds.ts";
import { applyFilingOutcome } from "./apply-filing-outcome.ts";
import { reconcile } from "./reconcile.ts";

const FEE = 2000n;

describe("fee holds", () => {
  const ledger = useLedgerDatabase("holds");

  it("holds the fee against the available balance and answers what remains", async () => {
    const accountId = await ledger.account(5000n);
    const hold = await placeHold(ledger.db, { accountId, filingId: "fil_h1", amountPence: FEE });
    expect(hold).toEqual({ holdId: expect.stringMatching(/^hold_[0-9A-Za-z]{20}$/), availablePence: 3000n, created: true });
    expect(await ledger.totals(accountId)).toEqual({ balance: 5000n, held: 2000n, available: 3000n });
  });

  it("refuses with 402 INSUFFICIENT_BALANCE and the required and available amounts, holding nothing", async () => {
    const accountId = await ledger.account(3000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_h2a", amountPence: FEE });
    const refusal = await placeHold(ledger.db, { accountId, filingId: "fil_h2b", amountPence: FEE }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    const error = refusal as AppError;
    expect(error).toMatchObject({ code: "INSUFFICIENT_BALANCE", httpStatus: 402, retryable: false });
    expect(error.details).toEqual([
      { field: "balance", message: "20.00 GBP required, 10.00 GBP available", required: "20.00", available: "10.00", currency: "GBP" },
    ]);
    expect(await ledger.totals(accountId)).toEqual({ balance: 3000n, held: 2000n, available: 1000n });
    expect(await ledger.db.hold.findUnique({ where: { filingId: "fil_h2b" } })).toBeNull();
  });

  it("treats an account billing does not know as having nothing available", async () => {
    await expect(placeHold(ledger.db, { accountId: "acc_unknown", filingId: "fil_h3", amountPence: FEE })).rejects.toMatchObject({
      code: "INSUFFICIENT_BALANCE",
      details: [expect.objectContaining({ required: "20.00", available: "0.00" })],
    });
  });

  it("five concurrent holds on an account with room for two: exactly two succeed", async () => {
    const accountId = await ledger.account(4000n + 1999n);
    const results = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) => placeHold(ledger.db, { accountId, filingId: `fil_race${n}`, amountPence: FEE })),
    );
    const held = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(held).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.reason).toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 5999n, held: 4000n, available: 1999n });
    expect(await ledger.db.ledgerEntry.count({ where: { accountId, kind: "hold" } })).toBe(2);
  });

  it("is idempotent per filing: a retried hold returns the same hold and holds nothing more", async () => {
    const accountId = await ledger.account(10_000n);
    const [first, second] = await Promise.all([
      placeHold(ledger.db, { accountId, filingId: "fil_h4", amountPence: FEE }),
      placeHold(ledger.db, { accountId, filingId: "fil_h4", amountPence: FEE }),
    ]);
    expect(first!.holdId).toBe(second!.holdId);
    expect([first!.created, second!.created].sort()).toEqual([false, true]);
    const third = await placeHold(ledger.db, { accountId, filingId: "fil_h4", amountPence: FEE });
    expect(third).toEqual({ holdId: first!.holdId, availablePence: 8000n, created: false });
    expect(await ledger.totals(accountId)).toEqual({ balance: 10_000n, held: 2000n, available: 8000n });
  });

  it("refuses the same filing held for another account or amount", async () => {
    const accountId = await ledger.account(10_000n);
    const other = await ledger.account(10_000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_h5", amountPence: FEE });
    await expect(placeHold(ledger.db, { accountId: other, filingId: "fil_h5", amountPence: FEE })).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_CONFLICT",
    });
    await expect(placeHold(ledger.db, { accountId, filingId: "fil_h5", amountPence: 2500n })).rejects.toMatchObject({
      code: "IDEMPOTENCY_KEY_CONFLICT",
    });
    expect(await ledger.totals(other)).toEqual({ balance: 10_000n, held: 0n, available: 10_000n });
  });

  it("releases once: a second release, or one of an unknown filing, changes nothing", async () => {
    const accountId = await ledger.account(2000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_h6", amountPence: FEE });
    expect(await releaseHold(ledger.db, { filingId: "fil_h6", reason: "tax authority unavailable" })).toEqual({ released: true });
    expect(await releaseHold(ledger.db, { filingId: "fil_h6", reason: "again" })).toEqual({ released: false });
    expect(await releaseHold(ledger.db, { filingId: "fil_never_held", reason: "nothing" })).toEqual({ released: false });
    expect(await ledger.totals(accountId)).toEqual({ balance: 2000n, held: 0n, available: 2000n });
    expect(await ledger.db.hold.findUnique({ where: { filingId: "fil_h6" } })).toMatchObject({
      state: "released",
      releaseReason: "tax authority unavailable",
    });
    const entries = await ledger.db.ledgerEntry.findMany({ where: { filingId: "fil_h6" }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.kind, e.heldDeltaPence])).toEqual([
      ["hold", 2000n],
      ["release", -2000n],
    ]);
  });

  it("holds a released filing again when it is submitted again, under the same hold", async () => {
    const accountId = await ledger.account(2000n);
    const first = await placeHold(ledger.db, { accountId, filingId: "fil_h7", amountPence: FEE });
    await releaseHold(ledger.db, { filingId: "fil_h7", reason: "submit failed before the authority" });
    const again = await placeHold(ledger.db, { accountId, filingId: "fil_h7", amountPence: FEE });
    expect(again).toEqual({ holdId: first.holdId, availablePence: 0n, created: true });
    expect(await ledger.db.hold.findUnique({ where: { filingId: "fil_h7" } })).toMatchObject({ state: "open", releaseReason: null });
    expect(await ledger.totals(accountId)).toEqual({ balance: 2000n, held: 2000n, available: 0n });
  });

  it("holds nothing when the caller stopped waiting before the commit", async () => {
    const accountId = await ledger.account(2000n);
    const controller = new AbortController();
    controller.abort();
    await expect(placeHold(ledger.db, { accountId, filingId: "fil_h8", amountPence: FEE }, controller.signal)).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      retryable: true,
    });
    expect(await ledger.totals(accountId)).toEqual({ balance: 2000n, held: 0n, available: 2000n });
    expect(await ledger.db.hold.findUnique({ where: { filingId: "fil_h8" } })).toBeNull();
  });

  it("many concurrent holds, releases and captures on one account never overdraw, and the ledger reconciles", async () => {
    // Room for 7 fees; 20 filings race for them while some of those already held are settled.
    const accountId = await ledger.account(7n * FEE + 500n);
    const at = new Date();
    const attempts = Array.from({ length: 20 }, (_, n) => `fil_many${n}`);
    const accept = (filingId: string) =>
      applyFilingOutcome(ledger.db, {
        filingId,
        accountId,
        outcome: "accepted",
        messageId: `m-${filingId}`,
        occurredAt: at,
        feePence: FEE,
      });
    const results = await Promise.allSettled(
      attempts.flatMap((filingId, n): Promise<unknown>[] => {
        const hold = placeHold(ledger.db, { accountId, filingId, amountPence: FEE });
        // A release may race its own hold (then it finds nothing); an acceptance follows its hold.
        if (n % 3 === 0) return [hold, releaseHold(ledger.db, { filingId, reason: "submit failed" })];
        if (n % 4 === 1) return [hold.then(() => accept(filingId))];
        return [hold];
      }),
    );
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    const totals = await ledger.totals(accountId);
    expect(totals.held).toBeGreaterThanOrEqual(0n);
    expect(totals.available).toBeGreaterThanOrEqual(0n);
    const open = await ledger.db.hold.findMany({ where: { accountId, state: "open" } });
    const captured = await ledger.db.hold.count({ where: { accountId, state: "captured" } });
    expect(totals.held).toBe(BigInt(open.length) * FEE);
    expect(totals.balance).toBe(7n * FEE + 500n - BigInt(captured) * FEE);
    const report = await reconcile(ledger.db);
    expect(report.problems).toEqual([]);
  });

  it("the same filing held concurrently for two accounts: one hold, the other refused as a conflict", async () => {
    const a = await ledger.account(10_000n);
    const b = await ledger.account(10_000n);
    const results = await Promise.allSettled([
      placeHold(ledger.db, { accountId: a, filingId: "fil_h9", amountPence: FEE }),
      placeHold(ledger.db, { accountId: b, filingId: "fil_h9", amountPence: FEE }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "IDEMPOTENCY_KEY_CONFLICT" } });
    const hold = await ledger.db.hold.findUniqueOrThrow({ where: { filingId: "fil_h9" } });
    const [held, other] = hold.accountId === a ? [a, b] : [b, a];
    expect(await ledger.totals(held)).toEqual({ balance: 10_000n, held: 2000n, available: 8000n });
    expect(await ledger.totals(other)).toEqual({ balance: 10_000n, held: 0n, available: 10_000n });
  });

  it("holds nothing when the caller stops waiting while the hold waits for the account's lock", async () => {
    const accountId = await ledger.account(2000n);
    // Another transaction holds the account's row lock, so the hold's statement queues behind it.
    const blocker = new pg.Client({ connectionString: ledger.url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query(`SELECT 1 FROM "accounts" WHERE "id" = $1 FOR UPDATE`, [accountId]);
      const controller = new AbortController();
      const hold = placeHold(ledger.db, { accountId, filingId: "fil_h10", amountPence: FEE }, controller.signal);
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      await expect(hold).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE", retryable: true });
      await blocker.query("COMMIT");
    } finally {
      await blocker.end();
    }
    expect(await ledger.totals(accountId)).toEqual({ balance: 2000n, held: 0n, available: 2000n });
    expect(await ledger.db.hold.findUnique({ where: { filingId: "fil_h10" } })).toBeNull();
    // The pool keeps working (the cancelled connection was not reused).
    expect(await placeHold(ledger.db, { accountId, filingId: "fil_h10", amountPence: FEE })).toMatchObject({
      created: true,
      availablePence: 0n,
    });
  });
});
