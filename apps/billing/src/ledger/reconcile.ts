import type { BillingDb } from "../db/client.ts";
import { formatPence } from "../money/pence.ts";
import { listCorrections, type Correction } from "./corrections.ts";

export interface ReconcileOptions {
  /** Holds open for longer than this are reported as warnings (default 48 hours). */
  staleHoldAfterMs?: number;
  now?: Date;
}

export interface ReconcileReport {
  /** True when there is no problem (warnings do not count). */
  ok: boolean;
  /** Money is wrong or unexplained: each entry says what and where. */
  problems: string[];
  /** Worth a look, money still consistent: stale open holds, contradicting outcomes, accounts owing after a late charge. */
  warnings: string[];
  /** Filings accepted after they had ended error (late acceptances), each charged once: information, not problems. */
  corrections: Correction[];
  checked: { accounts: number; entries: number; holds: number; filings_with_outcome: number };
}

const DEFAULT_STALE_HOLD_MS = 48 * 60 * 60 * 1000;

const gbp = (pence: bigint) => `${formatPence(pence)} GBP`;

/**
 * Checks the ledger's invariants and says what is wrong, if anything:
 *  1. every account's balance and held amount equal the sums of its entries;
 *  2. every account's held amount equals the sum of its open holds;
 *  3. every hold's entries match its state (open: held once more than released; captured: one
 *     capture; released: as many releases as holds) and its amount and account;
 *  4. every top-up has exactly one credit entry of its amount on its account;
 *  5. every filing billing saw accepted has exactly one capture (a late one counts), and no other
 *     filing has one;
 *  6. every refund or dispute (payment_reversals) has exactly one reversal entry taking its amount
 *     from its account, is for a payment credited to that account, and the reversals of a payment
 *     never add up to more than it.
 * Warnings: holds open for longer than the threshold (a filing stuck, or a hold its submit never
 * released); filings that received contradicting outcomes (the filing service publishes one per
 * filing, except a late acceptance after an error, which is a correction); accounts whose
 * available amount is negative (a late charge, a refund or a dispute they could not cover: they
 * owe it).
 * Corrections: every filing accepted after it had ended error, with when it ended error, when the
 * hold was released and when it was charged (corrections.ts).
 */
export async function reconcile(db: BillingDb, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const problems: string[] = [];
  const warnings: string[] = [];

  const totals = await db.$queryRaw<
    Array<{ id: string; balance_pence: bigint; held_pence: bigint; balance_sum: bigint; held_sum: bigint }>
  >`
    SELECT a."id", a."balance_pence", a."held_pence",
           COALESCE(SUM(e."balance_delta_pence"), 0)::bigint AS "balance_sum",
           COALESCE(SUM(e."held_delta_pence"), 0)::bigint AS "held_sum"
      FROM "accounts" a LEFT JOIN "ledger_entries" e ON e."account_id" = a."id"
     GROUP BY a."id"
     ORDER BY a."id"`;
  for (const row of totals) {
    if (row.balance_pence !== row.balance_sum) {
      problems.push(`account ${row.id}: balance is ${gbp(row.balance_pence)} but its ledger entries sum to ${gbp(row.balance_sum)}`);
    }
    if (row.held_pence !== row.held_sum) {
      problems.push(`account ${row.id}: held is ${gbp(row.held_pence)} but its ledger entries sum to ${gbp(row.held_sum)}`);
    }
  }

  const held = await db.$queryRaw<Array<{ id: string; held_pence: bigint; open_sum: bigint }>>`
    SELECT a."id", a."held_pence", COALESCE(SUM(h."amount_pence") FILTER (WHERE h."state" = 'open'), 0)::bigint AS "open_sum"
      FROM "accounts" a LEFT JOIN "holds" h ON h."account_id" = a."id"
     GROUP BY a."id"
    HAVING a."held_pence" <> COALESCE(SUM(h."amount_pence") FILTER (WHERE h."state" = 'open'), 0)
     ORDER BY a."id"`;
  for (const row of held) {
    problems.push(`account ${row.id}: held is ${gbp(row.held_pence)} but its open holds add up to ${gbp(row.open_sum)}`);
  }

  const holds = await db.$queryRaw<
    Array<{
      filing_id: string;
      state: string;
      amount_pence: bigint;
      holds: number;
      releases: number;
      captures: number;
      late_captures: number;
      held_sum: bigint;
      wrong: number;
    }>
  >`
    SELECT h."filing_id", h."state"::text AS "state", h."amount_pence",
           COUNT(e."id") FILTER (WHERE e."kind" = 'hold')::int AS "holds",
           COUNT(e."id") FILTER (WHERE e."kind" = 'release')::int AS "releases",
           COUNT(e."id") FILTER (WHERE e."kind" = 'capture')::int AS "captures",
           COUNT(e."id") FILTER (WHERE e."kind" = 'capture' AND e."held_delta_pence" = 0)::int AS "late_captures",
           COALESCE(SUM(e."held_delta_pence"), 0)::bigint AS "held_sum",
           COUNT(e."id") FILTER (WHERE e."account_id" <> h."account_id"
               OR (CASE WHEN e."kind" = 'capture' THEN -e."balance_delta_pence" ELSE ABS(e."held_delta_pence") END) <> h."amount_pence")::int AS "wrong"
      FROM "holds" h LEFT JOIN "ledger_entries" e ON e."filing_id" = h."filing_id"
     GROUP BY h."filing_id", h."state", h."amount_pence"
     ORDER BY h."filing_id"`;
  for (const row of holds) {
    const open = row.state === "open";
    const expectedHeld = open ? row.amount_pence : 0n;
    const expectedCaptures = row.state === "captured" ? 1 : 0;
    const expectedOutstanding = open ? 1 : 0;
    // A late capture (after the hold's release) takes nothing from what is held.
    const outstanding = row.holds - row.releases - (row.captures - row.late_captures);
    if (row.held_sum !== expectedHeld || row.captures !== expectedCaptures || outstanding !== expectedOutstanding || row.wrong > 0) {
      problems.push(
        `filing ${row.filing_id}: hold is ${row.state} (${gbp(row.amount_pence)}) but its entries are ${row.holds} hold, ` +
          `${row.captures} capture${row.late_captures > 0 ? ` (${row.late_captures} late)` : ""}, ${row.releases} release holding ${gbp(row.held_sum)}` +
          (row.wrong > 0 ? `, ${row.wrong} on another account or of another amount` : ""),
      );
    }
  }

  const topUps = await db.$queryRaw<
    Array<{ payment_id: string; account_id: string; amount_pence: bigint; credits: number; credited: bigint }>
  >`
    SELECT t."payment_id", t."account_id", t."amount_pence",
           COUNT(e."id")::int AS "credits",
           COALESCE(SUM(e."balance_delta_pence") FILTER (WHERE e."account_id" = t."account_id"), 0)::bigint AS "credited"
      FROM "top_ups" t LEFT JOIN "ledger_entries" e ON e."top_up_id" = t."id"
     GROUP BY t."id"
    HAVING COUNT(e."id") <> 1 OR COALESCE(SUM(e."balance_delta_pence") FILTER (WHERE e."account_id" = t."account_id"), 0) <> t."amount_pence"
     ORDER BY t."payment_id"`;
  for (const row of topUps) {
    problems.push(
      `payment ${row.payment_id}: ${gbp(row.amount_pence)} for ${row.account_id} but ${row.credits} credit entries add ${gbp(row.credited)} to it`,
    );
  }

  const uncharged = await db.$queryRaw<Array<{ filing_id: string; captures: number }>>`
    SELECT o."filing_id", COUNT(e."id")::int AS "captures"
      FROM "filing_outcomes" o LEFT JOIN "ledger_entries" e ON e."filing_id" = o."filing_id" AND e."kind" = 'capture'
     WHERE o."outcome" = 'accepted'
     GROUP BY o."filing_id"
    HAVING COUNT(e."id") <> 1
     ORDER BY o."filing_id"`;
  for (const row of uncharged) {
    problems.push(`filing ${row.filing_id}: accepted, but has ${row.captures} captures instead of exactly one`);
  }

  const charged = await db.$queryRaw<Array<{ filing_id: string }>>`
    SELECT DISTINCT e."filing_id" FROM "ledger_entries" e
     WHERE e."kind" = 'capture'
       AND NOT EXISTS (SELECT 1 FROM "filing_outcomes" o WHERE o."filing_id" = e."filing_id" AND o."outcome" = 'accepted')
     ORDER BY e."filing_id"`;
  for (const row of charged) {
    problems.push(`filing ${row.filing_id}: charged (captured) but billing never received its acceptance`);
  }

  const reversals = await db.$queryRaw<
    Array<{
      kind: string;
      provider_id: string;
      account_id: string;
      amount_pence: bigint;
      entries: number;
      debited: bigint;
      top_up_account: string;
    }>
  >`
    SELECT r."kind"::text AS "kind", r."provider_id", r."account_id", r."amount_pence", t."account_id" AS "top_up_account",
           COUNT(e."id")::int AS "entries",
           COALESCE(-SUM(e."balance_delta_pence") FILTER (WHERE e."account_id" = r."account_id"), 0)::bigint AS "debited"
      FROM "payment_reversals" r
      JOIN "top_ups" t ON t."id" = r."top_up_id"
      LEFT JOIN "ledger_entries" e ON e."reversal_id" = r."id"
     GROUP BY r."id", t."account_id"
    HAVING COUNT(e."id") <> 1
        OR COALESCE(-SUM(e."balance_delta_pence") FILTER (WHERE e."account_id" = r."account_id"), 0) <> r."amount_pence"
        OR t."account_id" <> r."account_id"
     ORDER BY r."kind", r."provider_id"`;
  for (const row of reversals) {
    problems.push(
      `${row.kind} ${row.provider_id}: ${gbp(row.amount_pence)} from ${row.account_id} but ${row.entries} reversal entries take ${gbp(row.debited)} from it` +
        (row.top_up_account !== row.account_id ? `, and its payment was credited to ${row.top_up_account}` : ""),
    );
  }

  const overReversed = await db.$queryRaw<Array<{ payment_id: string; amount_pence: bigint; reversed: bigint }>>`
    SELECT t."payment_id", t."amount_pence", SUM(r."amount_pence")::bigint AS "reversed"
      FROM "top_ups" t JOIN "payment_reversals" r ON r."top_up_id" = t."id"
     GROUP BY t."id"
    HAVING SUM(r."amount_pence") > t."amount_pence"
     ORDER BY t."payment_id"`;
  for (const row of overReversed) {
    problems.push(`payment ${row.payment_id}: ${gbp(row.amount_pence)} paid but refunds and disputes take back ${gbp(row.reversed)}`);
  }

  const contradicting = await db.$queryRaw<Array<{ filing_id: string; outcomes: string }>>`
    SELECT "filing_id", string_agg("outcome"::text, ', ' ORDER BY "received_at") AS "outcomes"
      FROM "filing_outcomes" GROUP BY "filing_id"
    HAVING COUNT(*) > 1 AND NOT (COUNT(*) = 2 AND bool_and("outcome" IN ('accepted', 'errored')))
     ORDER BY "filing_id"`;
  for (const row of contradicting) {
    warnings.push(`filing ${row.filing_id}: received contradicting outcomes (${row.outcomes}); the first one was applied`);
  }

  const owing = await db.$queryRaw<Array<{ id: string; balance_pence: bigint; held_pence: bigint }>>`
    SELECT "id", "balance_pence", "held_pence" FROM "accounts" WHERE "balance_pence" - "held_pence" < 0 ORDER BY "id"`;
  for (const row of owing) {
    warnings.push(
      `account ${row.id}: available is ${gbp(row.balance_pence - row.held_pence)} (balance ${gbp(row.balance_pence)}, held ${gbp(row.held_pence)}) ` +
        "after a late charge, a refund or a dispute it could not cover; it owes that until top-ups cover it, and no fee can be held meanwhile",
    );
  }

  const staleBefore = new Date((options.now ?? new Date()).getTime() - (options.staleHoldAfterMs ?? DEFAULT_STALE_HOLD_MS));
  const stale = await db.hold.findMany({ where: { state: "open", updatedAt: { lt: staleBefore } }, orderBy: { updatedAt: "asc" } });
  for (const hold of stale) {
    warnings.push(
      `filing ${hold.filingId}: ${gbp(hold.amountPence)} held for ${hold.accountId} since ${hold.updatedAt.toISOString()}, still open`,
    );
  }

  const [entries, holdCount, filings, corrections] = await Promise.all([
    db.ledgerEntry.count(),
    db.hold.count(),
    db.$queryRaw<Array<{ n: number }>>`SELECT COUNT(DISTINCT "filing_id")::int AS "n" FROM "filing_outcomes"`.then(
      (rows) => rows[0]?.n ?? 0,
    ),
    listCorrections(db),
  ]);
  return {
    ok: problems.length === 0,
    problems,
    warnings,
    corrections,
    checked: { accounts: totals.length, entries, holds: holdCount, filings_with_outcome: filings },
  };
}
