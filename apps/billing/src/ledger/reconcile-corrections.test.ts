import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { placeHold, releaseHold } from "./holds.ts";
import { applyFilingOutcome, type FilingOutcomeInput } from "./apply-filing-outcome.ts";
import { reconcile } from "./reconcile.ts";

// Reconcile after late acceptances (a filing accepted after it had ended error): each is a
// correction in the report, not a problem; the invariants still hold (one capture per accepted
// filing counting late ones, balances equal to their entries); an account left owing is a warning.
const FEE = 2000n;
const erroredAt = new Date("2026-11-20T10:00:00.000Z");
const acceptedAt = new Date("2026-11-21T09:30:00.000Z");

describe("reconcile with late acceptances", () => {
  const ledger = useLedgerDatabase("reconcile_late");
  const settle = (accountId: string, filingId: string, outcome: FilingOutcomeInput["outcome"], corrects?: "error") =>
    applyFilingOutcome(ledger.db, {
      filingId,
      accountId,
      outcome,
      messageId: `m-${filingId}-${outcome}`,
      occurredAt: outcome === "accepted" ? acceptedAt : erroredAt,
      feePence: FEE,
      ...(corrects ? { corrects } : {}),
    });

  it("lists each correction with when it ended error, was released and was charged; no problem, the ledger reconciles", async () => {
    const a = await ledger.account(4000n, "a");
    // Ordinary filings around them.
    await placeHold(ledger.db, { accountId: a, filingId: "fil_c0", amountPence: FEE });
    await settle(a, "fil_c0", "accepted");
    // Ended error, then accepted late: charged after the release.
    await placeHold(ledger.db, { accountId: a, filingId: "fil_c1", amountPence: FEE });
    await settle(a, "fil_c1", "errored");
    // Out of order: the late acceptance reached billing before the error.
    await placeHold(ledger.db, { accountId: a, filingId: "fil_c2", amountPence: FEE });
    await settle(a, "fil_c2", "accepted", "error");
    await settle(a, "fil_c2", "errored");
    // fil_c1's acceptance comes when the account has nothing left: it owes 20.00.
    await settle(a, "fil_c1", "accepted", "error");
    expect(await ledger.totals(a)).toEqual({ balance: -2000n, held: 0n, available: -2000n });

    const report = await reconcile(ledger.db);
    expect(report.ok).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.warnings).toEqual([
      `account ${a}: available is -20.00 GBP (balance -20.00 GBP, held 0.00 GBP) after a late charge, a refund or a dispute it could not cover; it owes that until top-ups cover it, and no fee can be held meanwhile`,
    ]);
    const releasedAt = await ledger.db.ledgerEntry.findFirstOrThrow({ where: { filingId: "fil_c1", kind: "release" } });
    const charges = await ledger.db.ledgerEntry.findMany({
      where: { filingId: { in: ["fil_c1", "fil_c2"] }, kind: "capture" },
      orderBy: { filingId: "asc" },
    });
    expect(report.corrections).toEqual([
      {
        filing_id: "fil_c1",
        account_id: a,
        ended_error_at: erroredAt.toISOString(),
        hold_released_at: releasedAt.createdAt.toISOString(),
        accepted_at: acceptedAt.toISOString(),
        charged_at: charges[0]!.createdAt.toISOString(),
        charged: "20.00",
        how: "after_release",
        corrects: "error",
      },
      {
        filing_id: "fil_c2",
        account_id: a,
        ended_error_at: erroredAt.toISOString(),
        hold_released_at: null,
        accepted_at: acceptedAt.toISOString(),
        charged_at: charges[1]!.createdAt.toISOString(),
        charged: "20.00",
        how: "from_open_hold",
        corrects: "error",
      },
    ]);
    expect(report.checked).toEqual({ accounts: 1, entries: 8, holds: 3, filings_with_outcome: 3 });
  });

  it("an acceptance after a rejection stays uncharged and a problem; the pair is a contradiction, not a correction", async () => {
    const b = await ledger.account(2000n, "b");
    await placeHold(ledger.db, { accountId: b, filingId: "fil_c3", amountPence: FEE });
    await settle(b, "fil_c3", "rejected");
    await settle(b, "fil_c3", "accepted", "error");
    // A filing released by billing.release (the filing service thought the submit never reached
    // the authority), then accepted without saying what it corrects: charged, listed.
    await placeHold(ledger.db, { accountId: b, filingId: "fil_c4", amountPence: FEE });
    await releaseHold(ledger.db, { filingId: "fil_c4", reason: "submit failed" });
    await settle(b, "fil_c4", "accepted");

    const report = await reconcile(ledger.db);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(["filing fil_c3: accepted, but has 0 captures instead of exactly one"]);
    expect(report.warnings).toContain("filing fil_c3: received contradicting outcomes (rejected, accepted); the first one was applied");
    expect(report.corrections.filter((c) => c.account_id === b)).toEqual([
      expect.objectContaining({
        filing_id: "fil_c3",
        how: "not_charged",
        charged_at: null,
        charged: null,
        ended_error_at: null,
        corrects: "error",
      }),
      expect.objectContaining({ filing_id: "fil_c4", how: "after_release", charged: "20.00", ended_error_at: null, corrects: null }),
    ]);
    expect(await ledger.totals(b)).toEqual({ balance: 0n, held: 0n, available: 0n });
  });

  it("names a corrupted late charge: a capture of another amount, and a late capture beside an open hold", async () => {
    const c = await ledger.account(10_000n, "c");
    await placeHold(ledger.db, { accountId: c, filingId: "fil_c5", amountPence: FEE });
    await placeHold(ledger.db, { accountId: c, filingId: "fil_c6", amountPence: FEE });
    await settle(c, "fil_c5", "errored");
    // Written behind the functions' back: a late charge of 15.00 for a 20.00 hold, and a late
    // charge of a filing whose hold is still open.
    await ledger.db
      .$executeRaw`INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id") VALUES (${c}, 'capture', -1500, 0, 'fil_c5')`;
    await ledger.db.$executeRaw`UPDATE "holds" SET "state" = 'captured' WHERE "filing_id" = 'fil_c5'`;
    await ledger.db
      .$executeRaw`INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id") VALUES (${c}, 'capture', -2000, 0, 'fil_c6')`;

    const report = await reconcile(ledger.db);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        "filing fil_c5: hold is captured (20.00 GBP) but its entries are 1 hold, 1 capture (1 late), 1 release holding 0.00 GBP, 1 on another account or of another amount",
        "filing fil_c6: hold is open (20.00 GBP) but its entries are 1 hold, 1 capture (1 late), 0 release holding 20.00 GBP",
        "filing fil_c5: charged (captured) but billing never received its acceptance",
        "filing fil_c6: charged (captured) but billing never received its acceptance",
      ]),
    );
  });
});
