import type { HandlerMap } from "@dormant/bus";
import type { BusEnvelope } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { FILING_SERVICE_MESSAGES } from "../bus-catalog.ts";
import type { FilingDb } from "../db/client.ts";
import type { FilingMetrics } from "../metrics.ts";
import { applyOutcome, type OutcomeEffect } from "./apply-outcome.ts";
import { applyRegistryOutcome, applyRegistryStatus } from "./registry-changes.ts";
import { applyTaxOutcome, applyTaxPolling } from "./tax-part-changes.ts";

export interface OutcomeDeps {
  db: FilingDb;
  logger: Logger;
  wakeRelay: () => void;
  metrics: FilingMetrics;
}

/**
 * The consumers of filing.outcomes: each handler applies its message (applyOutcome) and returns
 * once its change is written; the bus acks only then. A failure (database down) throws, and
 * the bus retries the message through its wait tiers.
 */
export function outcomeHandlers(deps: OutcomeDeps): HandlerMap<typeof FILING_SERVICE_MESSAGES, "filing.outcomes"> {
  // The relay is woken only when a change wrote a filing event (a final status), not for every message.
  const hooks = { onEventWritten: deps.wakeRelay };
  const report = (envelope: BusEnvelope<{ filing_id: string }>, effect: OutcomeEffect) => {
    deps.metrics.outcomes.inc({ type: envelope.type, effect });
    const fields = { filing_id: envelope.payload.filing_id, type: envelope.type, message_id: envelope.message_id, effect };
    if (effect === "unknown_filing") deps.logger.warn(fields, "outcome for a filing this service does not have");
    else deps.logger.info(fields, "outcome message handled");
  };
  const inbound = (envelope: BusEnvelope<{ filing_id: string }>) => ({
    messageId: envelope.message_id,
    type: envelope.type,
    filingId: envelope.payload.filing_id,
    requestId: envelope.request_id,
  });
  return {
    "tax.part_polling": async (envelope) =>
      report(envelope, await applyOutcome(deps.db, inbound(envelope), applyTaxPolling(envelope.payload), hooks)),
    "tax.part_outcome": async (envelope) =>
      report(envelope, await applyOutcome(deps.db, inbound(envelope), applyTaxOutcome(envelope.payload), hooks)),
    "registry.outcome": async (envelope) =>
      report(envelope, await applyOutcome(deps.db, inbound(envelope), applyRegistryOutcome(envelope.payload), hooks)),
    "registry.status": async (envelope) =>
      report(envelope, await applyOutcome(deps.db, inbound(envelope), applyRegistryStatus(envelope.payload), hooks)),
  };
}
