import type { BillingDb } from "../db/client.ts";
import { runStatement } from "../db/sql.ts";
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
}

export interface AppliedOutcome {
  /** True when this filing's outcome had been applied before (a redelivery or a duplicate event). */
  duplicate: boolean;
  effect: OutcomeEffect;
  /** The hold as it was found, for the caller's logs (null: the filing was never held). */
  hold: { accountId: string; amountPence: bigint } | null;
}

/**
 * Applies a filing's final outcome exactly once: accepted captures its open hold, rejected and
 * errored release it. One statement, one round trip (the SQL function
 * `billing_apply_filing_outcome`), in its own transaction: lock the hold's account, then record
 * the outcome in the inbox (primary key filing id + outcome), then move the hold and write its
 * entry. A second delivery of the same outcome, whatever its message id, finds the inbox row and
 * changes nothing; a crash before the commit leaves nothing behind, so the redelivery applies it.
 * A filing without an open hold (never held, or already settled by a contradicting outcome) is
 * recorded with effect `no_open_hold` and reported by reconcile when that leaves an accepted
 * filing uncharged.
 */
export async function applyFilingOutcome(db: BillingDb, input: FilingOutcomeInput): Promise<AppliedOutcome> {
  const rows = await runStatement<{ duplicate: boolean; effect: OutcomeEffect; hold_account_id: string | null; hold_amount_pence: string | null }>(db, {
    name: "billing_apply_filing_outcome",
    text: "SELECT duplicate, effect, hold_account_id, hold_amount_pence FROM billing_apply_filing_outcome($1, $2, $3, $4, $5, $6, $7)",
    values: [
      input.filingId,
      input.outcome,
      input.accountId,
      input.messageId,
      input.outcome === "accepted" && input.feePence !== undefined ? input.feePence.toString() : null,
      input.occurredAt,
      `filing ${input.outcome}`,
    ],
  });
  const row = rows[0];
  if (!row) throw new Error("billing_apply_filing_outcome answered no row");
  const hold = row.hold_account_id !== null && row.hold_amount_pence !== null ? { accountId: row.hold_account_id, amountPence: BigInt(row.hold_amount_pence) } : null;
  return { duplicate: row.duplicate, effect: row.effect, hold };
}
