import { Counter, type Registry } from "prom-client";

/** Billing's own counters, on the service's registry (GET /metrics). */
export function createBillingMetrics(registry: Registry) {
  return {
    holds: new Counter({
      name: "billing_holds_total",
      help: "Fee hold requests by result (held, existing, insufficient_balance, refused, failed)",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
    releases: new Counter({
      name: "billing_hold_releases_total",
      help: "Release requests from the filing service by whether an open hold was released",
      labelNames: ["released"] as const,
      registers: [registry],
    }),
    outcomes: new Counter({
      name: "billing_filing_outcomes_total",
      help: "Filing outcome events by outcome, effect (captured, captured_late, released, no_open_hold) and duplicate",
      labelNames: ["outcome", "effect", "duplicate"] as const,
      registers: [registry],
    }),
    lateCaptures: new Counter({
      name: "billing_late_captures_total",
      help: "Late acceptances charged after their hold was released (the filing had ended error), by whether the available balance covered the fee",
      labelNames: ["covered"] as const,
      registers: [registry],
    }),
    capturedPence: new Counter({
      name: "billing_captured_pence_total",
      help: "Fees captured, in pence",
      registers: [registry],
    }),
    topUps: new Counter({
      name: "billing_top_ups_total",
      help: "Top-ups by source (webhook, admin, opening) and result (credited, duplicate)",
      labelNames: ["source", "result"] as const,
      registers: [registry],
    }),
    reversals: new Counter({
      name: "billing_payment_reversals_total",
      help: "Refunds and disputes of payments by kind (refund, dispute) and result (debited, duplicate)",
      labelNames: ["kind", "result"] as const,
      registers: [registry],
    }),
    webhookRefusals: new Counter({
      name: "billing_webhook_refusals_total",
      help: "Payment webhook requests refused, by reason",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
  };
}

export type BillingMetrics = ReturnType<typeof createBillingMetrics>;
