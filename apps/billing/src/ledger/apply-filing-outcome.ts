import type { BillingDb } from "../db/client.ts";
import { runStatement } from "../db/sql.ts";
import type { FilingCorrection } from "@dormant/contracts";
import type { FilingOutcome, OutcomeEffect } from "../generated/prisma/client.ts";

export interface FilingOutcomeInput {
  filingId: string;
  /** The account the event names (the hold's own account is what is charged). */
  accountId: string;
  outcome: FilingOutcome;
  messageId: string;
  occurredAt: Date;
  /** The fee the event says is due (accepted only); the hold's amount is what is captured. */
  feePence?: bigint;
  /** What a late acceptance corrects (the event's `corrects`): the filing had ended error. */
  corrects?: FilingCorrection;
}

export interface AppliedOutcome {
  /** True when this filing's outcome had been applied before (a redelivery or a duplicate event). */
  duplicate: boolean;
  effect: OutcomeEffect;
  /** The hold as it was found, for the caller's logs (null: the filing was never held). */
  hold: { accountId: string; amountPence: bigint } | null;
  /** The hold's account's available amount after the statement (negative after a late charge it could not cover); null without a hold. */
  availablePence: bigint | null;
}

/**
 * Applies a filing's final outcome exactly once: accepted captures its open hold, rejected and
 * errored release it; an acceptance arriving after the hold was released (a late acceptance of a
 * filing that had ended error) charges it all the same, once (effect `captured_late`), even if
 * that leaves the account's available amount negative, unless billing received a rejection for
 * the filing. One statement, one round trip (the SQL function
 * `billing_apply_filing_outcome`), in its own transaction: lock the hold's account, then record
 * the outcome in the inbox (primary key filing id + outcome), then move the hold and write its
 * entry. A second delivery of the same outcome, whatever its message id, finds the inbox row and
 * changes nothing; a crash before the commit leaves nothing behind, so the redelivery applies it.
 * An errored or rejected outcome arriving after the acceptance finds the hold captured and
 * changes nothing. A filing without a hold to settle (never held, already captured, or an
 * acceptance after a rejection) is recorded with effect `no_open_hold` and reported by reconcile
 * when that leaves an accepted filing uncharged.
 */
export async function applyFilingOutcome(db: BillingDb, input: FilingOutcomeInput): Promise<AppliedOutcome> {
  const rows = await runStatement<{
    duplicate: boolean;
    effect: OutcomeEffect;
    hold_account_id: string | null;
    hold_amount_pence: string | null;
    available_pence: string | null;
  }>(db, {
    name: "billing_apply_filing_outcome_v2",
    text: "SELECT duplicate, effect, hold_account_id, hold_amount_pence, available_pence FROM billing_apply_filing_outcome($1, $2, $3, $4, $5, $6, $7, $8)",
    values: [
      input.filingId,
      input.outcome,
      input.accountId,
      input.messageId,
      input.outcome === "accepted" && input.feePence !== undefined ? input.feePence.toString() : null,
      input.occurredAt,
      `filing ${input.outcome}`,
      input.outcome === "accepted" ? (input.corrects ?? null) : null,
    ],
  });
  const row = rows[0];
  if (!row) throw new Error("billing_apply_filing_outcome answered no row");
  const hold =
    row.hold_account_id !== null && row.hold_amount_pence !== null
      ? { accountId: row.hold_account_id, amountPence: BigInt(row.hold_amount_pence) }
      : null;
  const availablePence = row.available_pence === null ? null : BigInt(row.available_pence);
  return { duplicate: row.duplicate, effect: row.effect, hold, availablePence };
}
