import type { FinalFilingsCursor } from "@dormant/contracts";
import type { BillingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";

/** What billing holds about one filing: its hold, its capture (at most one, by the database's rule) and the outcomes it received. */
export interface BillingFilingFacts {
  filingId: string;
  hold: { state: "open" | "captured" | "released"; accountId: string; amountPence: bigint } | null;
  capture: { accountId: string; amountPence: bigint } | null;
  /** The outcomes billing received for the filing, first applied first. */
  outcomes: Array<"accepted" | "rejected" | "errored">;
}

interface FactsRow {
  filing_id: string;
  hold_state: "open" | "captured" | "released" | null;
  hold_account_id: string | null;
  hold_amount_pence: bigint | null;
  capture_account_id: string | null;
  captured_pence: bigint | null;
  outcomes: string | null;
}

/** Billing's facts about each of these filings (a filing billing never heard of has no hold, capture or outcome). One statement. */
export async function billingFactsOf(db: BillingDb, filingIds: readonly string[]): Promise<Map<string, BillingFilingFacts>> {
  if (filingIds.length === 0) return new Map();
  const rows = await db.$queryRaw<FactsRow[]>`
    SELECT f."filing_id",
           h."state"::text AS "hold_state", h."account_id" AS "hold_account_id", h."amount_pence" AS "hold_amount_pence",
           c."account_id" AS "capture_account_id", -c."balance_delta_pence" AS "captured_pence",
           (SELECT string_agg(o."outcome"::text, ',' ORDER BY o."received_at") FROM "filing_outcomes" o WHERE o."filing_id" = f."filing_id") AS "outcomes"
      FROM unnest(${filingIds}::text[]) AS f("filing_id")
      LEFT JOIN "holds" h ON h."filing_id" = f."filing_id"
      LEFT JOIN "ledger_entries" c ON c."filing_id" = f."filing_id" AND c."kind" = 'capture'`;
  return new Map(
    rows.map((row) => [
      row.filing_id,
      {
        filingId: row.filing_id,
        hold:
          row.hold_state && row.hold_account_id && row.hold_amount_pence !== null
            ? { state: row.hold_state, accountId: row.hold_account_id, amountPence: row.hold_amount_pence }
            : null,
        capture:
          row.capture_account_id && row.captured_pence !== null
            ? { accountId: row.capture_account_id, amountPence: row.captured_pence }
            : null,
        outcomes: (row.outcomes?.split(",") ?? []) as BillingFilingFacts["outcomes"],
      },
    ]),
  );
}

/** A range of the order (occurred_at, filing id byte by byte): after `after` (or from `since`), up to `through` (or before `until`). */
export interface AcceptanceRange {
  since: string;
  until: string;
  /** Exclusive lower position; absent: from `since` inclusive. */
  after?: FinalFilingsCursor;
  /** Inclusive upper position; absent: up to `until` exclusive. */
  through?: FinalFilingsCursor;
}

/** An acceptance billing received, with what it charged for it. */
export interface BillingAcceptance {
  filingId: string;
  accountId: string;
  occurredAt: Date;
  effect: "captured" | "captured_late" | "released" | "no_open_hold";
  capture: { accountId: string; amountPence: bigint } | null;
}

interface AcceptanceRow {
  filing_id: string;
  account_id: string;
  occurred_at: Date;
  effect: BillingAcceptance["effect"];
  capture_account_id: string | null;
  captured_pence: bigint | null;
}

/** The statement of acceptancesInRange (exported for the test that checks it reads the index). */
export function acceptancesInRangeSql(range: AcceptanceRange, listed: readonly string[]): Prisma.Sql {
  const lower = range.after
    ? Prisma.sql`("occurred_at", "filing_id" COLLATE "C") > (${range.after.finalized_at}::timestamptz, ${range.after.filing_id}::text)`
    : Prisma.sql`"occurred_at" >= ${range.since}::timestamptz`;
  const upper = range.through
    ? Prisma.sql`("occurred_at", "filing_id" COLLATE "C") <= (${range.through.finalized_at}::timestamptz, ${range.through.filing_id}::text)`
    : Prisma.sql`"occurred_at" < ${range.until}::timestamptz`;
  return Prisma.sql`
    SELECT o."filing_id", o."account_id", o."occurred_at", o."effect"::text AS "effect",
           c."account_id" AS "capture_account_id", -c."balance_delta_pence" AS "captured_pence"
      FROM (SELECT * FROM "filing_outcomes"
             WHERE "outcome" = 'accepted' AND "occurred_at" >= ${range.since}::timestamptz AND "occurred_at" < ${range.until}::timestamptz
               AND ${lower} AND ${upper}
               AND NOT ("filing_id" = ANY (${listed}::text[]))) AS o
      LEFT JOIN "ledger_entries" c ON c."filing_id" = o."filing_id" AND c."kind" = 'capture'
     ORDER BY o."occurred_at", o."filing_id" COLLATE "C"`;
}

/**
 * The acceptances billing received whose event's occurred_at (the filing's finalized_at) falls in
 * the range, except those of `listed` filings. One statement, a range of the partial index
 * `filing_outcomes_accepted_occurred_at_idx`.
 */
export async function acceptancesInRange(db: BillingDb, range: AcceptanceRange, listed: readonly string[]): Promise<BillingAcceptance[]> {
  const rows = await db.$queryRaw<AcceptanceRow[]>(acceptancesInRangeSql(range, listed));
  return rows.map((row) => ({
    filingId: row.filing_id,
    accountId: row.account_id,
    occurredAt: row.occurred_at,
    effect: row.effect,
    capture:
      row.capture_account_id && row.captured_pence !== null ? { accountId: row.capture_account_id, amountPence: row.captured_pence } : null,
  }));
}
