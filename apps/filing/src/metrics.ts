import { Counter, type Registry } from "prom-client";

/** The filing service's own counters (the bus, HTTP and process metrics come from their packages). */
export interface FilingMetrics {
  submits: Counter<"type" | "result">;
  outcomes: Counter<"type" | "effect">;
  eventsPublished: Counter<"type">;
  registryLookups: Counter<"result">;
  swept: Counter<"result">;
  documentsRendered: Counter<"type" | "trigger">;
}

export function createFilingMetrics(registry: Registry): FilingMetrics {
  return {
    submits: new Counter({ name: "filing_submits_total", help: "Submit RPCs answered, by filing type and result code", labelNames: ["type", "result"], registers: [registry] }),
    outcomes: new Counter({ name: "filing_outcome_messages_total", help: "Outcome messages handled, by type and effect", labelNames: ["type", "effect"], registers: [registry] }),
    eventsPublished: new Counter({ name: "filing_outbox_published_total", help: "Outbox events published with a broker confirm", labelNames: ["type"], registers: [registry] }),
    registryLookups: new Counter({ name: "filing_registry_lookups_total", help: "Registry data lookups: cache hit, registry fetch, joined a fetch in flight", labelNames: ["result"], registers: [registry] }),
    swept: new Counter({ name: "filing_sweeper_finalised_total", help: "Pending filings the sweeper ended, by whether any part had reached an authority", labelNames: ["result"], registers: [registry] }),
    documentsRendered: new Counter({ name: "filing_documents_rendered_total", help: "PDFs rendered, by document type and trigger (event: filing.accepted; request: a read found it missing)", labelNames: ["type", "trigger"], registers: [registry] }),
  };
}
