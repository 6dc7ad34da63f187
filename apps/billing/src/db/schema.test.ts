import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@dormant/testing";
import type { TestDatabase } from "@dormant/testing";
import { closeBillingDb, createBillingDb } from "./client.ts";
import type { BillingDb } from "./client.ts";
import { migrateBillingDatabase } from "./migrations.ts";

// Proves that the hand-written migration SQL and prisma/schema.prisma agree (every model and
// column written and read back through the generated client on a database migrated from empty),
// and that the rules only the SQL carries hold: no overdraw, derived totals, append-only records,
// guarded hold transitions, one capture per filing.
describe("billing database schema", () => {
  let database: TestDatabase;
  let db: BillingDb;

  beforeAll(async () => {
    database = await createTestDatabase({ label: "bill_schema" });
    expect(await migrateBillingDatabase(database.url)).toEqual([
      "20251122120000_billing_ledger",
      "20261122080000_billing_money_moves_in_one_statement",
      "20261125120000_accepted_outcomes_by_time",
      "20261125160000_late_acceptance_charges",
      "20261128010000_checkouts",
      "20261128011000_checkouts_guard",
      "20261201090000_payment_reversal_kind",
      "20261201090100_payment_reversals",
    ]);
    db = createBillingDb(database.url);
  });
  afterAll(async () => {
    if (db) await closeBillingDb(db);
    await database?.drop();
  });

  /** The database's own words, whether Prisma surfaced them in the message or in the adapter's cause. */
  const refusal = (pattern: RegExp) => ({
    asymmetricMatch: (error: { message?: string; meta?: { driverAdapterError?: { cause?: { originalMessage?: string } } } }) =>
      pattern.test(`${error.message ?? ""} ${error.meta?.driverAdapterError?.cause?.originalMessage ?? ""}`),
    toString: () => `a database error matching ${pattern}`,
  });

  it("records the migrations the way Prisma does, and re-running changes nothing", async () => {
    expect(await migrateBillingDatabase(database.url)).toEqual([]);
    const rows = await db.$queryRaw<
      Array<{ migration_name: string }>
    >`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`;
    expect(rows.map((r) => r.migration_name)).toEqual([
      "20251122120000_billing_ledger",
      "20261122080000_billing_money_moves_in_one_statement",
      "20261125120000_accepted_outcomes_by_time",
      "20261125160000_late_acceptance_charges",
      "20261128010000_checkouts",
      "20261128011000_checkouts_guard",
      "20261201090000_payment_reversal_kind",
      "20261201090100_payment_reversals",
    ]);
  });

  it("indexes the acceptances by (occurred_at, filing id byte by byte), for reconcile against the filing service", async () => {
    const [index] = await db.$queryRaw<
      Array<{ indexdef: string }>
    >`SELECT indexdef FROM pg_indexes WHERE indexname = 'filing_outcomes_accepted_occurred_at_idx'`;
    expect(index?.indexdef).toBe(
      "CREATE INDEX filing_outcomes_accepted_occurred_at_idx ON public.filing_outcomes USING btree (occurred_at, filing_id COLLATE \"C\") WHERE (outcome = 'accepted'::filing_outcome)",
    );
  });

  it("stores every model with every column, and the entry trigger keeps the account's totals", async () => {
    const account = await db.account.create({ data: { id: "acc_schema1", name: "Schema Ltd" } });
    expect(account).toMatchObject({ balancePence: 0n, heldPence: 0n, name: "Schema Ltd" });
    expect(account.createdAt).toBeInstanceOf(Date);
    expect((await db.account.create({ data: { id: "acc_schema2" } })).name).toBeNull();

    const topUp = await db.topUp.create({
      data: { id: "top_1", paymentId: "pay_1", accountId: "acc_schema1", amountPence: 10_000n, source: "webhook" },
    });
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema1", kind: "credit", balanceDeltaPence: 10_000n, heldDeltaPence: 0n, topUpId: topUp.id },
    });
    const hold = await db.hold.create({ data: { id: "hold_1", filingId: "fil_schema1", accountId: "acc_schema1", amountPence: 2000n } });
    expect(hold).toMatchObject({ state: "open", releaseReason: null });
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema1", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 2000n, filingId: "fil_schema1" },
    });
    await db.hold.update({ where: { id: "hold_1" }, data: { state: "captured" } });
    await db.ledgerEntry.create({
      data: {
        accountId: "acc_schema1",
        kind: "capture",
        balanceDeltaPence: -2000n,
        heldDeltaPence: -2000n,
        filingId: "fil_schema1",
        note: "filing accepted",
      },
    });
    const occurredAt = new Date("2025-03-04T05:06:07.890Z");
    await db.filingOutcomeRecord.create({
      data: {
        filingId: "fil_schema1",
        outcome: "accepted",
        accountId: "acc_schema1",
        messageId: "m-1",
        feePence: 2000n,
        effect: "captured",
        occurredAt,
      },
    });

    const read = await db.account.findUniqueOrThrow({
      where: { id: "acc_schema1" },
      include: { entries: { orderBy: { id: "asc" }, include: { topUp: true, hold: true } }, holds: true, topUps: true },
    });
    expect(read).toMatchObject({ balancePence: 8000n, heldPence: 0n });
    expect(read.entries.map((e) => [e.kind, e.balanceDeltaPence, e.heldDeltaPence])).toEqual([
      ["credit", 10_000n, 0n],
      ["hold", 0n, 2000n],
      ["capture", -2000n, -2000n],
    ]);
    expect(read.entries[0]!.topUp).toMatchObject({ paymentId: "pay_1", source: "webhook" });
    expect(read.entries[2]!.hold).toMatchObject({ id: "hold_1", state: "captured" });
    expect(read.entries[2]!.note).toBe("filing accepted");
    expect(typeof read.entries[0]!.id).toBe("bigint");
    expect(read.holds).toHaveLength(1);
    expect(read.topUps).toHaveLength(1);
    const outcome = await db.filingOutcomeRecord.findUniqueOrThrow({
      where: { filingId_outcome: { filingId: "fil_schema1", outcome: "accepted" } },
    });
    expect(outcome).toMatchObject({ accountId: "acc_schema1", messageId: "m-1", feePence: 2000n, effect: "captured", occurredAt });
    expect(outcome.receivedAt).toBeInstanceOf(Date);
  });

  it("refuses to overdraw: held never exceeds the balance, and never goes negative", async () => {
    await db.account.create({ data: { id: "acc_schema3" } });
    await db.hold.create({ data: { id: "hold_3", filingId: "fil_schema3", accountId: "acc_schema3", amountPence: 2000n } });
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema3", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 2000n, filingId: "fil_schema3" },
      }),
    ).rejects.toEqual(refusal(/accounts_no_overdraw/));
    await expect(db.$executeRaw`UPDATE "accounts" SET "held_pence" = -1 WHERE "id" = 'acc_schema3'`).rejects.toEqual(
      refusal(/accounts_held_not_negative/),
    );
    expect(await db.ledgerEntry.count({ where: { accountId: "acc_schema3" } })).toBe(0);

    // Only the charge of a late acceptance (a capture of balance -X, held 0) may leave the
    // available amount below zero; then nothing can be held until credits cover it.
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema3", kind: "capture", balanceDeltaPence: -2000n, heldDeltaPence: 0n, filingId: "fil_schema3" },
    });
    expect(await db.account.findUniqueOrThrow({ where: { id: "acc_schema3" } })).toMatchObject({ balancePence: -2000n, heldPence: 0n });
    await db.hold.create({ data: { id: "hold_3b", filingId: "fil_schema3b", accountId: "acc_schema3", amountPence: 100n } });
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema3", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 100n, filingId: "fil_schema3b" },
      }),
    ).rejects.toEqual(refusal(/accounts_no_overdraw/));
    await db.topUp.create({ data: { id: "top_3", paymentId: "pay_3", accountId: "acc_schema3", amountPence: 2050n, source: "admin" } });
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema3", kind: "credit", balanceDeltaPence: 2050n, heldDeltaPence: 0n, topUpId: "top_3" },
    });
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema3", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 100n, filingId: "fil_schema3b" },
      }),
    ).rejects.toEqual(refusal(/accounts_no_overdraw/));
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema3", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 50n, filingId: "fil_schema3b" },
    });
    expect(await db.account.findUniqueOrThrow({ where: { id: "acc_schema3" } })).toMatchObject({ balancePence: 50n, heldPence: 50n });
  });

  it("refuses entries of the wrong shape and a second capture of a filing", async () => {
    await db.account.create({ data: { id: "acc_schema4" } });
    await db.topUp.create({ data: { id: "top_4", paymentId: "pay_4", accountId: "acc_schema4", amountPence: 5000n, source: "admin" } });
    const shape = refusal(/ledger_entries_shape/);
    await expect(
      db.ledgerEntry.create({ data: { accountId: "acc_schema4", kind: "credit", balanceDeltaPence: 5000n, heldDeltaPence: 0n } }),
    ).rejects.toEqual(shape);
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema4", kind: "credit", balanceDeltaPence: -5000n, heldDeltaPence: 0n, topUpId: "top_4" },
      }),
    ).rejects.toEqual(shape);
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema4", kind: "credit", balanceDeltaPence: 5000n, heldDeltaPence: 0n, topUpId: "top_4" },
    });
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema4", kind: "credit", balanceDeltaPence: 5000n, heldDeltaPence: 0n, topUpId: "top_4" },
      }),
    ).rejects.toMatchObject({ code: "P2002" });

    await db.hold.create({ data: { id: "hold_4", filingId: "fil_schema4", accountId: "acc_schema4", amountPence: 2000n } });
    // A capture takes its amount from what is held (-X / -X) or, charged late after the hold's release, from the balance alone (-X / 0): nothing else.
    for (const heldDeltaPence of [-1000n, 2000n, -3000n]) {
      await expect(
        db.ledgerEntry.create({
          data: { accountId: "acc_schema4", kind: "capture", balanceDeltaPence: -2000n, heldDeltaPence, filingId: "fil_schema4" },
        }),
      ).rejects.toEqual(shape);
    }
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema4", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 2000n, filingId: "fil_schema4" },
    });
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema4", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 2000n, filingId: "fil_schema4" },
    });
    await db.ledgerEntry.create({
      data: { accountId: "acc_schema4", kind: "capture", balanceDeltaPence: -2000n, heldDeltaPence: -2000n, filingId: "fil_schema4" },
    });
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema4", kind: "capture", balanceDeltaPence: -2000n, heldDeltaPence: -2000n, filingId: "fil_schema4" },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
    // Late or not, one capture per filing.
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema4", kind: "capture", balanceDeltaPence: -2000n, heldDeltaPence: 0n, filingId: "fil_schema4" },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
    // An entry must belong to a hold of that filing.
    await expect(
      db.ledgerEntry.create({
        data: { accountId: "acc_schema4", kind: "hold", balanceDeltaPence: 0n, heldDeltaPence: 100n, filingId: "fil_unheld" },
      }),
    ).rejects.toMatchObject({ code: "P2003" });
    expect(await db.account.findUniqueOrThrow({ where: { id: "acc_schema4" } })).toMatchObject({ balancePence: 3000n, heldPence: 2000n });
  });

  it("refuses UPDATE, DELETE and TRUNCATE of ledger entries, top-ups and outcomes", async () => {
    const entry = await db.ledgerEntry.findFirstOrThrow({ where: { accountId: "acc_schema1" } });
    const appendOnly = refusal(/append-only/);
    await expect(db.ledgerEntry.update({ where: { id: entry.id }, data: { balanceDeltaPence: 1n } })).rejects.toEqual(appendOnly);
    await expect(db.ledgerEntry.delete({ where: { id: entry.id } })).rejects.toEqual(appendOnly);
    await expect(db.$executeRaw`DELETE FROM "ledger_entries"`).rejects.toEqual(appendOnly);
    await expect(db.$executeRaw`TRUNCATE "ledger_entries" CASCADE`).rejects.toEqual(appendOnly);
    await expect(db.topUp.update({ where: { id: "top_1" }, data: { amountPence: 1n } })).rejects.toEqual(appendOnly);
    await expect(db.topUp.delete({ where: { id: "top_1" } })).rejects.toEqual(appendOnly);
    await expect(db.$executeRaw`UPDATE "filing_outcomes" SET "effect" = 'released'`).rejects.toEqual(appendOnly);
    await expect(db.$executeRaw`DELETE FROM "filing_outcomes"`).rejects.toEqual(appendOnly);
    expect(await db.ledgerEntry.findUniqueOrThrow({ where: { id: entry.id } })).toEqual(entry);
  });

  it("moves holds only along open -> captured | released, released -> open | captured, and never deletes them", async () => {
    await db.account.create({ data: { id: "acc_schema5" } });
    await db.hold.create({ data: { id: "hold_5", filingId: "fil_schema5", accountId: "acc_schema5", amountPence: 2000n } });
    await db.hold.update({ where: { id: "hold_5" }, data: { state: "released", releaseReason: "submit failed" } });
    await db.hold.update({ where: { id: "hold_5" }, data: { state: "open" } });
    await db.hold.update({ where: { id: "hold_5" }, data: { state: "captured" } });
    const refused = refusal(/refused|only its state|never deleted/);
    await expect(db.hold.update({ where: { id: "hold_5" }, data: { state: "released" } })).rejects.toEqual(refused);
    await expect(db.hold.update({ where: { id: "hold_5" }, data: { state: "open" } })).rejects.toEqual(refused);
    await expect(db.hold.update({ where: { id: "hold_5" }, data: { amountPence: 1n } })).rejects.toEqual(refused);
    await expect(db.hold.update({ where: { id: "hold_5" }, data: { accountId: "acc_schema1" } })).rejects.toEqual(refused);
    await expect(db.hold.delete({ where: { id: "hold_5" } })).rejects.toEqual(refused);
    expect(await db.hold.findUniqueOrThrow({ where: { id: "hold_5" } })).toMatchObject({ state: "captured", amountPence: 2000n });
    // A late acceptance charges a released hold: released -> captured, final as ever.
    await db.hold.create({ data: { id: "hold_5b", filingId: "fil_schema5b", accountId: "acc_schema5", amountPence: 2000n } });
    await db.hold.update({ where: { id: "hold_5b" }, data: { state: "released", releaseReason: "filing errored" } });
    await db.hold.update({ where: { id: "hold_5b" }, data: { state: "captured" } });
    await expect(db.hold.update({ where: { id: "hold_5b" }, data: { state: "released" } })).rejects.toEqual(refused);
  });

  it("keeps checkouts: the account and amount fixed, paid once with its payment id, never deleted", async () => {
    await db.account.create({ data: { id: "acc_schema6" } });
    const checkout = await db.checkout.create({ data: { id: "cs_schema6", accountId: "acc_schema6", amountPence: 2500n } });
    expect(checkout).toMatchObject({ state: "open", paymentId: null, paidAt: null });
    expect(checkout.createdAt).toBeInstanceOf(Date);
    const shape = refusal(/checkouts_paid_shape|check constraint/);
    await expect(db.checkout.update({ where: { id: "cs_schema6" }, data: { state: "paid" } })).rejects.toEqual(shape);
    await expect(db.checkout.create({ data: { id: "cs_schema6z", accountId: "acc_schema6", amountPence: 0n } })).rejects.toEqual(
      refusal(/checkouts_amount_positive|check constraint/),
    );
    const fixed = refusal(/never changed/);
    await expect(db.checkout.update({ where: { id: "cs_schema6" }, data: { amountPence: 1n } })).rejects.toEqual(fixed);
    const paidAt = new Date("2026-11-28T01:00:00.000Z");
    await db.checkout.update({ where: { id: "cs_schema6" }, data: { state: "paid", paymentId: "pay_schema6", paidAt } });
    expect(await db.checkout.findUniqueOrThrow({ where: { id: "cs_schema6" } })).toMatchObject({
      state: "paid",
      paymentId: "pay_schema6",
      paidAt,
    });
    await expect(db.checkout.update({ where: { id: "cs_schema6" }, data: { paymentId: "pay_other" } })).rejects.toEqual(fixed);
    await expect(db.checkout.delete({ where: { id: "cs_schema6" } })).rejects.toEqual(refusal(/never deleted/));
    await expect(db.$executeRaw`TRUNCATE "checkouts" CASCADE`).rejects.toEqual(refusal(/append-only/));
  });
});
