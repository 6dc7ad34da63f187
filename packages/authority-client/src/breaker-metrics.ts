import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** Numeric breaker states of the `authority_breaker_state` gauge. */
export const BREAKER_STATE_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

export interface BreakerMetrics {
  state: Gauge<"breaker">;
  opened: Counter<"breaker">;
  failures: Counter<"breaker" | "reason">;
  rejected: Counter<"breaker">;
  shared: Counter<"breaker" | "event">;
  duration: Histogram<"breaker" | "outcome">;
}

/**
 * The breakers' metrics on the service's own registry (one set per registry, shared by every
 * breaker of the process, labelled by breaker name).
 */
export function createBreakerMetrics(registry: Registry): BreakerMetrics {
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter({ name, help, labelNames, registers });
  return {
    state: new Gauge({
      name: "authority_breaker_state",
      help: "State of each authority breaker: 0 closed, 1 half-open, 2 open",
      labelNames: ["breaker"] as const,
      registers,
    }),
    opened: counter("authority_breaker_opened_total", "Times each authority breaker opened", ["breaker"]),
    failures: counter(
      "authority_breaker_failures_total",
      "Authority calls counted as failures by the breaker, by reason (timeout, http_status, network, authority_error)",
      ["breaker", "reason"],
    ),
    rejected: counter("authority_breaker_rejected_total", "Authority calls refused without being sent because the breaker was open", [
      "breaker",
    ]),
    shared: counter(
      "authority_breaker_shared_events_total",
      "What each breaker did on another replica's word (opened_by_peer, closed_by_peer, probe_left_to_peer: half-open, another replica sends the trial)",
      ["breaker", "event"],
    ),
    duration: new Histogram({
      name: "authority_request_duration_seconds",
      help: "Duration of authority calls through the breaker, by outcome (success, failure, rejected, aborted, error)",
      labelNames: ["breaker", "outcome"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30],
      registers,
    }),
  };
}
