import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** The notifier's own metrics, on the service's registry (GET /metrics). */
export function createNotifierMetrics(registry: Registry) {
  return {
    deliveries: new Counter({
      name: "webhook_deliveries_total",
      help: "Webhook delivery outcomes: delivered, failed_attempt (an attempt failed; retried), given_up (the retry horizon passed), cancelled (endpoint deleted or disabled)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    attemptDuration: new Histogram({
      name: "webhook_attempt_duration_seconds",
      help: "Duration of webhook delivery attempts (connect to answer), by result (delivered, failed)",
      labelNames: ["result"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    }),
    backlogAge: new Gauge({
      name: "webhook_backlog_age_seconds",
      help: "How long the most overdue pending delivery has been due (0: nothing overdue)",
      registers: [registry],
    }),
    events: new Counter({
      name: "webhook_events_total",
      help: "Events taken in, by type and result (new; duplicate: seen before; no_endpoint: no endpoint subscribed, nothing stored)",
      labelNames: ["type", "result"] as const,
      registers: [registry],
    }),
  };
}

export type NotifierMetrics = ReturnType<typeof createNotifierMetrics>;
