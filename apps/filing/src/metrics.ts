import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { UNFINISHED_STATUSES, UNFINISHED_TYPES, type UnfinishedOldest } from "./reads/filing-activity.ts";

/** The filing service's own metrics (the bus, HTTP and process metrics come from their packages). */
export interface FilingMetrics {
  submits: Counter<"type" | "result">;
  validations: Counter<"type" | "mode" | "result">;
  outcomes: Counter<"type" | "effect">;
  eventsPublished: Counter<"type">;
  registryLookups: Counter<"result">;
  swept: Counter<"result">;
  documentsRendered: Counter<"type" | "trigger">;
  renderSeconds: Histogram<"type" | "mode">;
  renderWaitSeconds: Histogram;
  renderThreadsLost: Counter<"reason">;
  /** Where `filing_document_renders` reads the renders queued and in flight from. */
  watchRenders(pending: () => { queued: number; inFlight: number }): void;
  /** Where `filing_oldest_unfinished_age_seconds` reads the oldest filings not yet final from, at each scrape. */
  watchUnfinished(read: () => Promise<UnfinishedOldest[]>): void;
}

export function createFilingMetrics(registry: Registry): FilingMetrics {
  let pendingRenders = () => ({ queued: 0, inFlight: 0 });
  new Gauge({
    name: "filing_document_renders",
    help: "PDF renders waiting for a render thread (queued) and rendering (in_flight)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const { queued, inFlight } = pendingRenders();
      this.set({ state: "queued" }, queued);
      this.set({ state: "in_flight" }, inFlight);
    },
  });
  let readUnfinished: () => Promise<UnfinishedOldest[]> = async () => [];
  new Gauge({
    name: "filing_oldest_unfinished_age_seconds",
    help: "Age (since it was received) of the oldest filing not yet final, by filing type and status (pending: a part not yet acknowledged by its authority; submitted: awaiting the answer); 0 when there is none. Read from the database at each scrape: every replica reports the same value",
    labelNames: ["type", "status"],
    registers: [registry],
    async collect() {
      let oldest: UnfinishedOldest[];
      try {
        oldest = await readUnfinished();
      } catch {
        return; // the database did not answer: keep the last values (/readyz reports the database)
      }
      for (const type of UNFINISHED_TYPES) {
        for (const status of UNFINISHED_STATUSES) {
          const found = oldest.find((entry) => entry.type === type && entry.status === status);
          this.set({ type, status }, found?.age_seconds ?? 0);
        }
      }
    },
  });
  return {
    submits: new Counter({
      name: "filing_submits_total",
      help: "Submit RPCs answered, by filing type and result code",
      labelNames: ["type", "result"],
      registers: [registry],
    }),
    validations: new Counter({
      name: "filing_validations_total",
      help: "Validate-only RPCs answered, by filing type, key mode and result (valid, invalid, or the error code)",
      labelNames: ["type", "mode", "result"],
      registers: [registry],
    }),
    outcomes: new Counter({
      name: "filing_outcome_messages_total",
      help: "Outcome messages handled, by type and effect",
      labelNames: ["type", "effect"],
      registers: [registry],
    }),
    eventsPublished: new Counter({
      name: "filing_outbox_published_total",
      help: "Outbox events published with a broker confirm",
      labelNames: ["type"],
      registers: [registry],
    }),
    registryLookups: new Counter({
      name: "filing_registry_lookups_total",
      help: "Registry data lookups: cache hit, registry fetch, joined a fetch in flight",
      labelNames: ["result"],
      registers: [registry],
    }),
    swept: new Counter({
      name: "filing_sweeper_settled_total",
      help: "Pending filings the sweeper looked at, by what their submitters said: acknowledged (now polled), unsent (ended error), partly_sent (a part that never left ended error), awaiting_retry (a part never left: waiting for the client's retry), in_doubt (left pending)",
      labelNames: ["result"],
      registers: [registry],
    }),
    documentsRendered: new Counter({
      name: "filing_documents_rendered_total",
      help: "PDFs rendered, by document type and trigger (event: filing.accepted; request: a read found it missing)",
      labelNames: ["type", "trigger"],
      registers: [registry],
    }),
    renderSeconds: new Histogram({
      name: "filing_document_render_seconds",
      help: "Time rendering one PDF (in its render thread, or inline on the event loop), by document type and mode (thread | inline)",
      labelNames: ["type", "mode"],
      buckets: [0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    renderWaitSeconds: new Histogram({
      name: "filing_document_render_wait_seconds",
      help: "Time a PDF waited for a free render thread before its rendering started (render threads only)",
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    renderThreadsLost: new Counter({
      name: "filing_document_render_threads_lost_total",
      help: "PDF render threads that died and were replaced, by reason (crash, timeout, start_failed)",
      labelNames: ["reason"],
      registers: [registry],
    }),
    watchRenders: (pending) => {
      pendingRenders = pending;
    },
    watchUnfinished: (read) => {
      readUnfinished = read;
    },
  };
}
