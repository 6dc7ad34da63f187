import type { BillingDb } from "../db/client.ts";
import { formatPence } from "../money/pence.ts";

/**
 * A filing that ended `error` and was accepted after all (issue 11, item 10): the filing service
 * published `filing.errored` (billing released the hold), then `filing.accepted` for the same
 * filing. Not a problem: billing charges it once. Reconcile lists each one for operators.
 */
export interface Correction {
  filing_id: string;
  /** The account the acceptance named. */
  account_id: string;
  /** When the filing ended error: the `occurred_at` of the filing.errored billing received; null if none reached billing. */
  ended_error_at: string | null;
  /** When billing released the hold (its last release entry); null if it never was. */
  hold_released_at: string | null;
  /** When the filing was accepted: the acceptance's `occurred_at` (the filing's new finalized_at). */
  accepted_at: string;
  /** When billing charged it (its capture entry); null if it did not (reconcile reports that as a problem). */
  charged_at: string | null;
  /** What was charged, GBP ("20.00"); null if nothing. */
  charged: string | null;
  /**
   * after_release: the hold had been released, the late acceptance charged it (balance -X, held 0);
   * from_open_hold: the acceptance reached billing before the error (out of order), so it captured the open hold and the error released nothing;
   * not_charged: no capture (a problem reconcile reports separately).
   */
  how: "after_release" | "from_open_hold" | "not_charged";
  /** What the acceptance said it corrects ("error"), or null if it did not say. */
  corrects: string | null;
}

interface CorrectionRow {
  filing_id: string;
  account_id: string;
  accepted_at: Date;
  corrects: string | null;
  ended_error_at: Date | null;
  hold_released_at: Date | null;
  charged_at: Date | null;
  charged_pence: bigint | null;
  charged_held_delta: bigint | null;
}

/**
 * The accepted filings that billing also knows ended error: the acceptance says it corrects an
 * error, or billing received a filing.errored for the filing too, or the acceptance was charged
 * after the hold's release. Oldest acceptance first. One statement.
 */
export async function listCorrections(db: BillingDb): Promise<Correction[]> {
  const rows = await db.$queryRaw<CorrectionRow[]>`
    SELECT a."filing_id", a."account_id", a."occurred_at" AS "accepted_at", a."corrects",
           e."occurred_at" AS "ended_error_at",
           (SELECT MAX(r."created_at") FROM "ledger_entries" r WHERE r."filing_id" = a."filing_id" AND r."kind" = 'release') AS "hold_released_at",
           c."created_at" AS "charged_at", -c."balance_delta_pence" AS "charged_pence", c."held_delta_pence" AS "charged_held_delta"
      FROM "filing_outcomes" a
      LEFT JOIN "filing_outcomes" e ON e."filing_id" = a."filing_id" AND e."outcome" = 'errored'
      LEFT JOIN "ledger_entries" c ON c."filing_id" = a."filing_id" AND c."kind" = 'capture'
     WHERE a."outcome" = 'accepted' AND (a."corrects" IS NOT NULL OR e."filing_id" IS NOT NULL OR a."effect" = 'captured_late')
     ORDER BY a."occurred_at", a."filing_id"`;
  return rows.map((row) => ({
    filing_id: row.filing_id,
    account_id: row.account_id,
    ended_error_at: row.ended_error_at?.toISOString() ?? null,
    hold_released_at: row.hold_released_at?.toISOString() ?? null,
    accepted_at: row.accepted_at.toISOString(),
    charged_at: row.charged_at?.toISOString() ?? null,
    charged: row.charged_pence === null ? null : formatPence(row.charged_pence),
    how: row.charged_at === null ? "not_charged" : row.charged_held_delta === 0n ? "after_release" : "from_open_hold",
    corrects: row.corrects,
  }));
}
