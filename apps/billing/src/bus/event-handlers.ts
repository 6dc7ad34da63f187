import type { HandlerMap } from "@dormant/bus";
import type { BusEnvelope } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { BillingDb } from "../db/client.ts";
import type { FilingOutcome } from "../generated/prisma/client.ts";
import { applyFilingOutcome } from "../ledger/outcomes.ts";
import type { BillingMetrics } from "../metrics.ts";
import type { BILLING_EVENT_CATALOG } from "./catalog.ts";

export interface BillingEventDeps {
  db: BillingDb;
  logger: Logger;
  metrics: BillingMetrics;
}

type FinalEvent = { filing_id: string; account_id: string; occurred_at: string; fee_pence?: number };

/**
 * `billing.events`: capture the fee hold when a filing is accepted, release it when rejected or
 * errored; exactly once per filing (applyFilingOutcome's inbox), so the bus may redeliver at
 * will. A failure (database down) throws: the bus retries through the queue's tiers.
 */
export function billingEventHandlers({ db, logger, metrics }: BillingEventDeps): HandlerMap<typeof BILLING_EVENT_CATALOG, "billing.events"> {
  const apply = async (outcome: FilingOutcome, message: BusEnvelope<FinalEvent>) => {
    const event = message.payload;
    const applied = await applyFilingOutcome(db, {
      filingId: event.filing_id,
      accountId: event.account_id,
      outcome,
      messageId: message.message_id,
      occurredAt: new Date(event.occurred_at),
      ...(event.fee_pence === undefined ? {} : { feePence: BigInt(event.fee_pence) }),
    });
    metrics.outcomes.inc({ outcome, effect: applied.effect, duplicate: String(applied.duplicate) });
    const fields = { filing_id: event.filing_id, account_id: event.account_id, outcome, effect: applied.effect, duplicate: applied.duplicate, message_id: message.message_id };
    if (applied.duplicate) {
      logger.info(fields, "filing outcome already applied; nothing changed");
      return;
    }
    if (applied.effect === "captured") metrics.capturedPence.inc(Number(applied.hold?.amountPence ?? 0n));
    if (applied.hold && applied.hold.accountId !== event.account_id) {
      logger.error({ ...fields, hold_account_id: applied.hold.accountId }, "filing outcome names another account than its hold; the hold's account was used");
    }
    if (applied.hold && event.fee_pence !== undefined && BigInt(event.fee_pence) !== applied.hold.amountPence) {
      logger.warn({ ...fields, fee_pence: event.fee_pence, held_pence: Number(applied.hold.amountPence) }, "accepted fee differs from the amount held; the held amount was captured");
    }
    if (applied.effect === "no_open_hold" && outcome === "accepted") {
      logger.error(fields, "filing accepted without an open fee hold: not charged (reconcile reports it)");
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
