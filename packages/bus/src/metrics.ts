import { Counter, type Registry } from "prom-client";

/** The bus's counters, on the service's registry (labels: queue, message type). */
export interface BusMetrics {
  published: Counter<"type">;
  consumed: Counter<"queue" | "type">;
  failed: Counter<"queue" | "type">;
  retried: Counter<"queue" | "type">;
  deadLettered: Counter<"queue" | "type" | "reason">;
}

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function createBusMetrics(registry: Registry): BusMetrics {
  return {
    published: counter(registry, "bus_published_total", "Messages published and confirmed by the broker", ["type"]),
    consumed: counter(registry, "bus_consumed_total", "Messages delivered to a consumer", ["queue", "type"]),
    failed: counter(registry, "bus_failed_total", "Handler attempts that failed (error or timeout)", ["queue", "type"]),
    retried: counter(registry, "bus_retried_total", "Messages sent to a wait tier for another attempt", ["queue", "type"]),
    deadLettered: counter(registry, "bus_dead_lettered_total", "Messages parked in a dead-letter queue", ["queue", "type", "reason"]),
  };
}
