import { describe, expect, it } from "vitest";
import { useLedgerDatabase } from "../test-support/ledger-fixture.ts";
import { placeHold, releaseHold } from "./holds.ts";
import { applyFilingOutcome } from "./apply-filing-outcome.ts";
import { reconcile } from "./reconcile.ts";
import { applyTopUp } from "./top-ups.ts";

const FEE = 2000n;
const at = new Date("2025-06-01T10:00:00.000Z");

describe("reconcile", () => {
  const ledger = useLedgerDatabase("reconcile");
  const settle = (accountId: string, filingId: string, outcome: "accepted" | "rejected" | "errored") =>
    applyFilingOutcome(ledger.db, { filingId, accountId, outcome, messageId: `m-${filingId}-${outcome}`, occurredAt: at, feePence: FEE });

  it("passes on a busy but correct ledger, then names each thing wrong once the data is corrupted", async () => {
    const a = await ledger.account(10_000n, "a");
    const b = await ledger.account(2000n, "b");
    await applyTopUp(ledger.db, { accountId: b, amountPence: 3000n, paymentId: "pay_r1", source: "webhook" });
    for (const n of [1, 2, 3, 4]) await placeHold(ledger.db, { accountId: a, filingId: `fil_r${n}`, amountPence: FEE });
    await settle(a, "fil_r1", "accepted");
    await settle(a, "fil_r1", "accepted");
    await settle(a, "fil_r2", "rejected");
    await releaseHold(ledger.db, { filingId: "fil_r3", reason: "submit failed" });
    await placeHold(ledger.db, { accountId: a, filingId: "fil_r3", amountPence: FEE });
    await settle(a, "fil_r3", "accepted");
    await placeHold(ledger.db, { accountId: b, filingId: "fil_r5", amountPence: FEE });
    await settle(b, "fil_r5", "errored");

    const clean = await reconcile(ledger.db);
    expect(clean).toEqual({
      ok: true,
      problems: [],
      warnings: [],
      corrections: [],
      checked: { accounts: 2, entries: 14, holds: 5, filings_with_outcome: 4 },
    });
    expect(await ledger.totals(a)).toEqual({ balance: 6000n, held: 2000n, available: 4000n });

    // fil_r4 is still open: stale once the threshold has passed.
    const later = await reconcile(ledger.db, { now: new Date(Date.now() + 3 * 24 * 3600 * 1000) });
    expect(later.ok).toBe(true);
    expect(later.warnings).toEqual([expect.stringMatching(new RegExp(`^filing fil_r4: 20.00 GBP held for ${a} since .*, still open$`))]);

    // A contradicting outcome is a warning: money stays right.
    await settle(a, "fil_r1", "rejected");
    const contradicted = await reconcile(ledger.db);
    expect(contradicted.ok).toBe(true);
    expect(contradicted.warnings).toEqual([
      "filing fil_r1: received contradicting outcomes (accepted, rejected); the first one was applied",
    ]);

    // Corruption: a balance edited behind the ledger's back, an acceptance that was never charged,
    // a charge without an acceptance.
    await ledger.db.$executeRaw`UPDATE "accounts" SET "balance_pence" = "balance_pence" + 500 WHERE "id" = ${b}`;
    await ledger.db
      .$executeRaw`INSERT INTO "filing_outcomes" ("filing_id", "outcome", "account_id", "message_id", "fee_pence", "effect", "occurred_at")
                                VALUES ('fil_r9', 'accepted', ${a}, 'forged', 2000, 'captured', now())`;
    await ledger.db.$executeRaw`ALTER TABLE "ledger_entries" DISABLE TRIGGER "ledger_entries_apply"`;
    try {
      await ledger.db.ledgerEntry.create({
        data: { accountId: a, kind: "capture", balanceDeltaPence: -FEE, heldDeltaPence: -FEE, filingId: "fil_r4" },
      });
    } finally {
      await ledger.db.$executeRaw`ALTER TABLE "ledger_entries" ENABLE TRIGGER "ledger_entries_apply"`;
    }

    const broken = await reconcile(ledger.db);
    expect(broken.ok).toBe(false);
    expect([...broken.problems].sort()).toEqual(
      [
        `account ${a}: balance is 60.00 GBP but its ledger entries sum to 40.00 GBP`,
        `account ${a}: held is 20.00 GBP but its ledger entries sum to 0.00 GBP`,
        `account ${b}: balance is 55.00 GBP but its ledger entries sum to 50.00 GBP`,
        "filing fil_r4: hold is open (20.00 GBP) but its entries are 1 hold, 1 capture, 0 release holding 0.00 GBP",
        "filing fil_r9: accepted, but has 0 captures instead of exactly one",
        "filing fil_r4: charged (captured) but billing never received its acceptance",
      ].sort(),
    );
  });
});
