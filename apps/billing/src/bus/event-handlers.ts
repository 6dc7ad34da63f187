import type { HandlerMap } from "@dormant/bus";
import type { BusEnvelope, FilingCorrection } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { BillingDb } from "../db/client.ts";
import type { FilingOutcome } from "../generated/prisma/client.ts";
import { applyFilingOutcome } from "../ledger/apply-filing-outcome.ts";
import type { BillingMetrics } from "../metrics.ts";
import type { BILLING_EVENT_CATALOG } from "./catalog.ts";

export interface BillingEventDeps {
  db: BillingDb;
  logger: Logger;
  metrics: BillingMetrics;
}

type FinalEvent = { filing_id: string; account_id: string; occurred_at: string; fee_pence?: number; corrects?: FilingCorrection };

/**
 * `billing.events`: capture the fee hold when a filing is accepted, release it when rejected or
 * errored; exactly once per filing (applyFilingOutcome's inbox), so the bus may redeliver at
 * will. A late acceptance (the hold was released when the filing ended error) is charged all the
 * same, once, and logged as a warning with what the account has left. A failure (database down)
 * throws: the bus retries through the queue's tiers.
 */
export function billingEventHandlers({
  db,
  logger,
  metrics,
}: BillingEventDeps): HandlerMap<typeof BILLING_EVENT_CATALOG, "billing.events"> {
  const apply = async (outcome: FilingOutcome, message: BusEnvelope<FinalEvent>) => {
    const event = message.payload;
    const applied = await applyFilingOutcome(db, {
      filingId: event.filing_id,
      accountId: event.account_id,
      outcome,
      messageId: message.message_id,
      occurredAt: new Date(event.occurred_at),
      ...(event.fee_pence === undefined ? {} : { feePence: BigInt(event.fee_pence) }),
      ...(event.corrects === undefined ? {} : { corrects: event.corrects }),
    });
    metrics.outcomes.inc({ outcome, effect: applied.effect, duplicate: String(applied.duplicate) });
    const fields = {
      filing_id: event.filing_id,
      account_id: event.account_id,
      outcome,
      effect: applied.effect,
      duplicate: applied.duplicate,
      message_id: message.message_id,
      ...(event.corrects === undefined ? {} : { corrects: event.corrects }),
    };
    if (applied.duplicate) {
      logger.info(fields, "filing outcome already applied; nothing changed");
      return;
    }
    if (applied.effect === "captured" || applied.effect === "captured_late")
      metrics.capturedPence.inc(Number(applied.hold?.amountPence ?? 0n));
    if (applied.hold && applied.hold.accountId !== event.account_id) {
      logger.error(
        { ...fields, hold_account_id: applied.hold.accountId },
        "filing outcome names another account than its hold; the hold's account was used",
      );
    }
    if (applied.hold && event.fee_pence !== undefined && BigInt(event.fee_pence) !== applied.hold.amountPence) {
      logger.warn(
        { ...fields, fee_pence: event.fee_pence, held_pence: Number(applied.hold.amountPence) },
        "accepted fee differs from the amount held; the held amount was captured",
      );
    }
    if (applied.effect === "captured_late") {
      const available = applied.availablePence ?? 0n;
      metrics.lateCaptures.inc({ covered: String(available >= 0n) });
      const late = { ...fields, available_pence: Number(available), held_pence: Number(applied.hold?.amountPence ?? 0n) };
      if (event.corrects === undefined) {
        logger.warn(
          late,
          "filing accepted after its hold was released, without saying what it corrects: charged once (late capture); reconcile lists it",
        );
      } else {
        logger.warn(
          late,
          available < 0n
            ? "late acceptance of a filing that had ended error: charged once though the account could not cover it (it owes the difference; the next top-up covers it)"
            : "late acceptance of a filing that had ended error: charged once after its hold was released",
        );
      }
    } else if (applied.effect === "no_open_hold" && outcome === "accepted") {
      logger.error(fields, "filing accepted without a hold to charge (never held, or rejected before): not charged (reconcile reports it)");
    } else if (applied.effect === "no_open_hold" && applied.hold) {
      logger.info(
        fields,
        "filing outcome recorded; its hold was not open (released before, or captured by an acceptance that reached billing first): nothing released or refunded",
      );
    } else {
      logger.info(fields, "filing outcome applied");
    }
  };
  return {
    "filing.accepted": (message) => apply("accepted", message),
    "filing.rejected": (message) => apply("rejected", message),
    "filing.errored": (message) => apply("errored", message),
  };
}
