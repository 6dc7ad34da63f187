import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { placeHold, releaseHold } from "./holds.ts";
import { applyFilingOutcome, type FilingOutcomeInput } from "./apply-filing-outcome.ts";
import { reconcile } from "./reconcile.ts";
import { applyTopUp } from "./top-ups.ts";

// A filing that ended error (filing.errored released its hold) and that the authority accepted
// after all: the filing service publishes filing.accepted for it with corrects: "error"
// (issue 11, item 10). Real Postgres: the SQL function, the CHECKs and triggers decide.
const FEE = 2000n;
const erroredAt = new Date("2026-11-20T10:00:00.000Z");
const acceptedAt = new Date("2026-11-21T09:30:00.000Z");

describe("late acceptances", () => {
  const ledger = useLedgerDatabase("late_accept");
  const outcome = (
    accountId: string,
    filingId: string,
    kind: FilingOutcomeInput["outcome"],
    options: { messageId?: string; corrects?: "error"; occurredAt?: Date } = {},
  ) =>
    applyFilingOutcome(ledger.db, {
      filingId,
      accountId,
      outcome: kind,
      messageId: options.messageId ?? `m-${filingId}-${kind}`,
      occurredAt: options.occurredAt ?? (kind === "accepted" ? acceptedAt : erroredAt),
      ...(kind === "accepted" ? { feePence: FEE } : {}),
      ...(options.corrects ? { corrects: options.corrects } : {}),
    });
  const entriesOf = async (filingId: string) =>
    (await ledger.db.ledgerEntry.findMany({ where: { filingId }, orderBy: { id: "asc" } })).map((e) => [
      e.kind,
      e.balanceDeltaPence,
      e.heldDeltaPence,
      e.note,
    ]);

  it("charges a filing accepted after it ended error, once: the released hold becomes captured", async () => {
    const accountId = await ledger.account(10_000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_late1", amountPence: FEE });
    expect(await outcome(accountId, "fil_late1", "errored")).toMatchObject({ duplicate: false, effect: "released" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 10_000n, held: 0n, available: 10_000n });

    expect(await outcome(accountId, "fil_late1", "accepted", { corrects: "error" })).toEqual({
      duplicate: false,
      effect: "captured_late",
      hold: { accountId, amountPence: FEE },
      availablePence: 8000n,
    });
    expect(await ledger.totals(accountId)).toEqual({ balance: 8000n, held: 0n, available: 8000n });
    expect(await ledger.db.hold.findUnique({ where: { filingId: "fil_late1" } })).toMatchObject({ state: "captured" });
    expect(await entriesOf("fil_late1")).toEqual([
      ["hold", 0n, 2000n, null],
      ["release", 0n, -2000n, "filing errored"],
      ["capture", -2000n, 0n, "filing accepted after its hold was released"],
    ]);
    expect(
      await ledger.db.filingOutcomeRecord.findUnique({ where: { filingId_outcome: { filingId: "fil_late1", outcome: "accepted" } } }),
    ).toMatchObject({
      effect: "captured_late",
      corrects: "error",
      feePence: FEE,
      occurredAt: acceptedAt,
    });
  });

  it("charges once whatever is redelivered or duplicated, concurrently, and an old error redelivered refunds nothing", async () => {
    const accountId = await ledger.account(10_000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_late2", amountPence: FEE });
    await outcome(accountId, "fil_late2", "errored", { messageId: "m-err" });
    const copies = await Promise.all(
      ["m-acc", "m-acc", "m-acc-copy", "m-acc-copy2", "m-acc", "m-acc-copy3"].map((messageId) =>
        outcome(accountId, "fil_late2", "accepted", { messageId, corrects: "error" }),
      ),
    );
    expect(copies.filter((c) => !c.duplicate)).toHaveLength(1);
    expect(copies.every((c) => c.effect === "captured_late")).toBe(true);
    expect(await outcome(accountId, "fil_late2", "errored", { messageId: "m-err" })).toMatchObject({ duplicate: true, effect: "released" });
    expect(await outcome(accountId, "fil_late2", "errored", { messageId: "m-err-copy" })).toMatchObject({ duplicate: true });
    expect(await ledger.db.ledgerEntry.count({ where: { filingId: "fil_late2", kind: "capture" } })).toBe(1);
    expect(await ledger.totals(accountId)).toEqual({ balance: 8000n, held: 0n, available: 8000n });
  });

  it("an error arriving after the acceptance (out of order) releases and refunds nothing", async () => {
    const accountId = await ledger.account(5000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_late3", amountPence: FEE });
    expect(await outcome(accountId, "fil_late3", "accepted", { corrects: "error" })).toMatchObject({
      duplicate: false,
      effect: "captured",
    });
    expect(await outcome(accountId, "fil_late3", "errored")).toMatchObject({ duplicate: false, effect: "no_open_hold" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 3000n, held: 0n, available: 3000n });
    expect(await entriesOf("fil_late3")).toEqual([
      ["hold", 0n, 2000n, null],
      ["capture", -2000n, -2000n, "filing accepted"],
    ]);
  });

  it("an acceptance while the hold is still open is the ordinary capture, with or without corrects", async () => {
    const accountId = await ledger.account(5000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_late4", amountPence: FEE });
    expect(await outcome(accountId, "fil_late4", "accepted")).toEqual({
      duplicate: false,
      effect: "captured",
      hold: { accountId, amountPence: FEE },
      availablePence: 3000n,
    });
    expect(await entriesOf("fil_late4")).toEqual([
      ["hold", 0n, 2000n, null],
      ["capture", -2000n, -2000n, "filing accepted"],
    ]);
  });

  it("charges an acceptance after a release the filing service asked for (in doubt, no corrects), but never one after a rejection or never held", async () => {
    const accountId = await ledger.account(10_000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_late5", amountPence: FEE });
    await releaseHold(ledger.db, { filingId: "fil_late5", reason: "submit failed" });
    expect(await outcome(accountId, "fil_late5", "accepted")).toMatchObject({ effect: "captured_late" });

    await placeHold(ledger.db, { accountId, filingId: "fil_late6", amountPence: FEE });
    await outcome(accountId, "fil_late6", "rejected");
    expect(await outcome(accountId, "fil_late6", "accepted", { corrects: "error" })).toMatchObject({
      duplicate: false,
      effect: "no_open_hold",
    });
    expect(await outcome(accountId, "fil_late7", "accepted", { corrects: "error" })).toMatchObject({
      duplicate: false,
      effect: "no_open_hold",
      hold: null,
    });
    expect(await ledger.db.ledgerEntry.count({ where: { filingId: { in: ["fil_late6", "fil_late7"] }, kind: "capture" } })).toBe(0);
    expect(await ledger.totals(accountId)).toEqual({ balance: 8000n, held: 0n, available: 8000n });
  });

  it("charges even when the account cannot cover it: it owes the difference, holds are refused until top-ups cover it", async () => {
    const accountId = await ledger.account(2000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_debt1", amountPence: FEE });
    await outcome(accountId, "fil_debt1", "errored");
    // The money freed by the release is spent on another filing meanwhile.
    await placeHold(ledger.db, { accountId, filingId: "fil_debt2", amountPence: FEE });
    expect(await ledger.totals(accountId)).toEqual({ balance: 2000n, held: 2000n, available: 0n });

    expect(await outcome(accountId, "fil_debt1", "accepted", { corrects: "error" })).toMatchObject({
      effect: "captured_late",
      availablePence: -2000n,
    });
    expect(await ledger.totals(accountId)).toEqual({ balance: 0n, held: 2000n, available: -2000n });
    await expect(placeHold(ledger.db, { accountId, filingId: "fil_debt3", amountPence: FEE })).rejects.toMatchObject({
      code: "INSUFFICIENT_BALANCE",
      details: [expect.objectContaining({ required: "20.00", available: "0.00" })],
    });
    // The other filing is still settled normally.
    await outcome(accountId, "fil_debt2", "accepted");
    expect(await ledger.totals(accountId)).toEqual({ balance: -2000n, held: 0n, available: -2000n });

    await applyTopUp(ledger.db, { accountId, amountPence: 3000n, paymentId: `pay_debt_${accountId}`, source: "webhook" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 1000n, held: 0n, available: 1000n });
    await expect(placeHold(ledger.db, { accountId, filingId: "fil_debt3", amountPence: FEE })).rejects.toMatchObject({
      code: "INSUFFICIENT_BALANCE",
    });
    await applyTopUp(ledger.db, { accountId, amountPence: 1000n, paymentId: `pay_debt2_${accountId}`, source: "webhook" });
    expect(await placeHold(ledger.db, { accountId, filingId: "fil_debt3", amountPence: FEE })).toMatchObject({
      created: true,
      availablePence: 0n,
    });

    // The ledger of this account reconciles (other tests of this file leave problems of their own on purpose).
    const report = await reconcile(ledger.db);
    expect(report.problems.filter((problem) => problem.includes(accountId) || problem.includes("fil_debt"))).toEqual([]);
    expect(report.corrections.filter((correction) => correction.filing_id === "fil_debt1")).toEqual([
      expect.objectContaining({ account_id: accountId, how: "after_release", corrects: "error", charged: "20.00" }),
    ]);
  });

  it("a late charge racing holds on the same account: each hold sees the charge or comes before it, never an overdraw by a hold", async () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const accountId = await ledger.account(2000n);
      const late = `fil_race${n}`;
      await placeHold(ledger.db, { accountId, filingId: late, amountPence: FEE });
      await outcome(accountId, late, "errored");
      const [charged, ...holds] = await Promise.allSettled([
        outcome(accountId, late, "accepted", { corrects: "error" }),
        placeHold(ledger.db, { accountId, filingId: `fil_race${n}_a`, amountPence: FEE }),
        placeHold(ledger.db, { accountId, filingId: `fil_race${n}_b`, amountPence: FEE }),
      ]);
      expect(charged).toMatchObject({ status: "fulfilled", value: { effect: "captured_late" } });
      const placed = holds.filter((h) => h.status === "fulfilled").length;
      expect(placed).toBeLessThanOrEqual(1);
      // Balance 0 after the charge; 20.00 held if a hold came first (then available -20.00).
      expect(await ledger.totals(accountId)).toEqual({ balance: 0n, held: BigInt(placed) * FEE, available: -BigInt(placed) * FEE });
      expect(await ledger.db.ledgerEntry.count({ where: { filingId: late, kind: "capture" } })).toBe(1);
    }
  });

  it("the database refuses a second charge of a filing charged late, and any hold that would overdraw", async () => {
    const accountId = await ledger.account(2000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_db1", amountPence: FEE });
    await outcome(accountId, "fil_db1", "errored");
    await outcome(accountId, "fil_db1", "accepted", { corrects: "error" });
    for (const held of [0n, -FEE]) {
      await expect(
        ledger.db
          .$executeRaw`INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id") VALUES (${accountId}, 'capture', ${-FEE}, ${held}, 'fil_db1')`,
      ).rejects.toThrow(/ledger_entries_one_capture_per_filing|duplicate key/);
    }
    // A captured hold is final: it cannot be released or re-opened.
    await expect(ledger.db.$executeRaw`UPDATE "holds" SET "state" = 'released' WHERE "filing_id" = 'fil_db1'`).rejects.toThrow(
      /captured -> released refused/,
    );
    await expect(ledger.db.$executeRaw`UPDATE "holds" SET "state" = 'open' WHERE "filing_id" = 'fil_db1'`).rejects.toThrow(
      /captured -> open refused/,
    );
    // Balance 0, nothing available: a hold entry written behind the functions' back is refused by the database.
    await ledger.db.hold.create({ data: { id: `hold_db2_${accountId}`, filingId: "fil_db2", accountId, amountPence: FEE } });
    await expect(
      ledger.db
        .$executeRaw`INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id") VALUES (${accountId}, 'hold', 0, ${FEE}, 'fil_db2')`,
    ).rejects.toThrow(/accounts_no_overdraw/);
    // A late-shaped capture of a filing whose hold is open, in an account that has the money, is still one capture only.
    expect(await ledger.totals(accountId)).toEqual({ balance: 0n, held: 0n, available: 0n });
  });
});
