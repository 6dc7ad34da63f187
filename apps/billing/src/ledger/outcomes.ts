import { inTransaction, type BillingDb } from "../db/client.ts";
import type { FilingOutcome, OutcomeEffect } from "../generated/prisma/client.ts";
import { settleOpenHold } from "./holds.ts";
import { lockAccount } from "./lock.ts";

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
 * errored release it. In one transaction: lock the account, then record the outcome in the inbox
 * (primary key filing id + outcome), then move the hold. A second delivery of the same outcome,
 * whatever its message id, finds the inbox row and changes nothing; a crash before the commit
 * leaves nothing behind, so the redelivery applies it. A filing without an open hold (never held,
 * or already settled by a contradicting outcome) is recorded with effect `no_open_hold` and
 * reported by reconcile when that leaves an accepted filing uncharged.
 */
export async function applyFilingOutcome(db: BillingDb, input: FilingOutcomeInput): Promise<AppliedOutcome> {
  return inTransaction(db, async (tx) => {
    const found = await tx.hold.findUnique({ where: { filingId: input.filingId } });
    if (found) await lockAccount(tx, found.accountId);
    // Read again under the account lock: nothing can move the hold from here to the commit.
    const hold = found ? await tx.hold.findUniqueOrThrow({ where: { filingId: input.filingId } }) : null;
    const effect: OutcomeEffect = hold?.state !== "open" ? "no_open_hold" : input.outcome === "accepted" ? "captured" : "released";

    const { count } = await tx.filingOutcomeRecord.createMany({
      data: [
        {
          filingId: input.filingId,
          outcome: input.outcome,
          accountId: input.accountId,
          messageId: input.messageId,
          feePence: input.outcome === "accepted" ? (input.feePence ?? null) : null,
          effect,
          occurredAt: input.occurredAt,
        },
      ],
      skipDuplicates: true,
    });
    const heldAs = hold ? { accountId: hold.accountId, amountPence: hold.amountPence } : null;
    if (count === 0) {
      const first = await tx.filingOutcomeRecord.findUniqueOrThrow({ where: { filingId_outcome: { filingId: input.filingId, outcome: input.outcome } } });
      return { duplicate: true, effect: first.effect, hold: heldAs };
    }
    if (effect !== "no_open_hold") await settleOpenHold(tx, input.filingId, effect, `filing ${input.outcome}`);
    return { duplicate: false, effect, hold: heldAs };
  });
}
