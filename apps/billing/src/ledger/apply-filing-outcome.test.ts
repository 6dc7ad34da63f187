import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { placeHold, releaseHold } from "./holds.ts";
import { applyFilingOutcome, type FilingOutcomeInput } from "./apply-filing-outcome.ts";

const FEE = 2000n;
const at = new Date("2025-06-01T10:00:00.000Z");

describe("filing outcomes", () => {
  const ledger = useLedgerDatabase("outcomes");
  const outcome = (accountId: string, filingId: string, kind: FilingOutcomeInput["outcome"], messageId = `m-${filingId}-${kind}`) =>
    applyFilingOutcome(ledger.db, {
      filingId,
      accountId,
      outcome: kind,
      messageId,
      occurredAt: at,
      ...(kind === "accepted" ? { feePence: FEE } : {}),
    });

  it("one acceptance and one rejection cost exactly 20.00", async () => {
    const accountId = await ledger.account(10_000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_o1", amountPence: FEE });
    await placeHold(ledger.db, { accountId, filingId: "fil_o2", amountPence: FEE });
    expect(await outcome(accountId, "fil_o1", "accepted")).toEqual({
      duplicate: false,
      effect: "captured",
      hold: { accountId, amountPence: FEE },
      availablePence: 6000n,
    });
    expect(await outcome(accountId, "fil_o2", "rejected")).toMatchObject({ duplicate: false, effect: "released" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 8000n, held: 0n, available: 8000n });
  });

  it("an errored filing costs nothing", async () => {
    const accountId = await ledger.account(2000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_o3", amountPence: FEE });
    expect(await outcome(accountId, "fil_o3", "errored")).toMatchObject({ effect: "released" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 2000n, held: 0n, available: 2000n });
    expect(await ledger.db.hold.findUnique({ where: { filingId: "fil_o3" } })).toMatchObject({
      state: "released",
      releaseReason: "filing errored",
    });
  });

  it("charges once for the same acceptance delivered again, with the same or another message id, even concurrently", async () => {
    const accountId = await ledger.account(10_000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_o4", amountPence: FEE });
    const results = await Promise.all([
      outcome(accountId, "fil_o4", "accepted", "m-1"),
      outcome(accountId, "fil_o4", "accepted", "m-1"),
      outcome(accountId, "fil_o4", "accepted", "m-2"),
      outcome(accountId, "fil_o4", "accepted", "m-3"),
    ]);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(results.every((r) => r.effect === "captured")).toBe(true);
    expect(await ledger.db.ledgerEntry.count({ where: { filingId: "fil_o4", kind: "capture" } })).toBe(1);
    expect(await ledger.totals(accountId)).toEqual({ balance: 8000n, held: 0n, available: 8000n });
  });

  it("a contradicting outcome after the first changes nothing: accepted stays charged, rejected stays free", async () => {
    const accountId = await ledger.account(10_000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_o5", amountPence: FEE });
    await placeHold(ledger.db, { accountId, filingId: "fil_o6", amountPence: FEE });
    await outcome(accountId, "fil_o5", "accepted");
    expect(await outcome(accountId, "fil_o5", "rejected")).toEqual({
      duplicate: false,
      effect: "no_open_hold",
      hold: { accountId, amountPence: FEE },
      availablePence: 6000n,
    });
    await outcome(accountId, "fil_o6", "rejected");
    expect(await outcome(accountId, "fil_o6", "accepted")).toMatchObject({ duplicate: false, effect: "no_open_hold" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 8000n, held: 0n, available: 8000n });
  });

  it("records an outcome for a filing that was never held, without moving money", async () => {
    const accountId = await ledger.account(5000n);
    expect(await outcome(accountId, "fil_o7", "accepted")).toEqual({
      duplicate: false,
      effect: "no_open_hold",
      hold: null,
      availablePence: null,
    });
    expect(await outcome(accountId, "fil_o7", "accepted", "m-again")).toEqual({
      duplicate: true,
      effect: "no_open_hold",
      hold: null,
      availablePence: null,
    });
    expect(await ledger.totals(accountId)).toEqual({ balance: 5000n, held: 0n, available: 5000n });
    expect(await ledger.db.filingOutcomeRecord.findMany({ where: { filingId: "fil_o7" } })).toEqual([
      expect.objectContaining({
        outcome: "accepted",
        messageId: `m-fil_o7-accepted`,
        feePence: FEE,
        effect: "no_open_hold",
        occurredAt: at,
      }),
    ]);
  });

  it("does not release a filing's new hold when an old rejection is redelivered", async () => {
    const accountId = await ledger.account(2000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_o8", amountPence: FEE });
    await outcome(accountId, "fil_o8", "rejected", "m-old");
    await placeHold(ledger.db, { accountId, filingId: "fil_o8", amountPence: FEE });
    expect(await outcome(accountId, "fil_o8", "rejected", "m-old")).toMatchObject({ duplicate: true, effect: "released" });
    expect(await ledger.totals(accountId)).toEqual({ balance: 2000n, held: 2000n, available: 0n });
  });

  it("a capture redelivered after its commit applies once: the inbox row answers, nothing more is charged", async () => {
    const accountId = await ledger.account(5000n);
    await placeHold(ledger.db, { accountId, filingId: "fil_o9", amountPence: FEE });
    const first = await outcome(accountId, "fil_o9", "accepted", "m-9");
    const redelivered = await Promise.all([1, 2, 3].map(() => outcome(accountId, "fil_o9", "accepted", "m-9")));
    expect(first).toEqual({ duplicate: false, effect: "captured", hold: { accountId, amountPence: FEE }, availablePence: 3000n });
    expect(redelivered).toEqual(
      [1, 2, 3].map(() => ({ duplicate: true, effect: "captured", hold: { accountId, amountPence: FEE }, availablePence: 3000n })),
    );
    expect(await ledger.totals(accountId)).toEqual({ balance: 3000n, held: 0n, available: 3000n });
    const entries = await ledger.db.ledgerEntry.findMany({ where: { filingId: "fil_o9" }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.kind, e.balanceDeltaPence, e.heldDeltaPence, e.note])).toEqual([
      ["hold", 0n, 2000n, null],
      ["capture", -2000n, -2000n, "filing accepted"],
    ]);
    expect(await ledger.db.filingOutcomeRecord.findMany({ where: { filingId: "fil_o9" } })).toEqual([
      expect.objectContaining({ outcome: "accepted", messageId: "m-9", feePence: FEE, effect: "captured", accountId }),
    ]);
  });

  it("an acceptance racing a release of the same hold: charged once either way (late if the release came first)", async () => {
    for (const n of [1, 2, 3, 4, 5]) {
      const accountId = await ledger.account(2000n);
      const filingId = `fil_o10_${n}`;
      await placeHold(ledger.db, { accountId, filingId, amountPence: FEE });
      const [accepted, released] = await Promise.all([
        outcome(accountId, filingId, "accepted"),
        releaseHold(ledger.db, { filingId, reason: "submit failed" }),
      ]);
      expect(accepted.effect).toBe(released.released ? "captured_late" : "captured");
      expect(await ledger.totals(accountId)).toEqual({ balance: 0n, held: 0n, available: 0n });
      expect(await ledger.db.ledgerEntry.count({ where: { filingId, kind: "capture" } })).toBe(1);
      expect(await ledger.db.ledgerEntry.count({ where: { filingId, kind: "release" } })).toBe(released.released ? 1 : 0);
    }
  });
});
