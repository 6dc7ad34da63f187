import { planTopology } from "./plan.ts";
import type { Topology } from "./spec.ts";

/**
 * The topology as RabbitMQ definitions (the JSON the management plugin exports and imports, also
 * `rabbitmqctl import_definitions`). Users and permissions are left out: they are secrets of the
 * deployment. RPC queues are left out too: their servers declare them (auto-delete).
 */
export interface RabbitDefinitions {
  vhosts: { name: string }[];
  exchanges: {
    name: string;
    vhost: string;
    type: string;
    durable: boolean;
    auto_delete: boolean;
    internal: boolean;
    arguments: Record<string, never>;
  }[];
  queues: { name: string; vhost: string; durable: boolean; auto_delete: boolean; arguments: Record<string, string | number> }[];
  bindings: {
    source: string;
    vhost: string;
    destination: string;
    destination_type: "queue";
    routing_key: string;
    arguments: Record<string, never>;
  }[];
}

export function topologyDefinitions(topology: Topology, vhost = "/"): RabbitDefinitions {
  const plan = planTopology(topology);
  return {
    vhosts: [{ name: vhost }],
    exchanges: plan.exchanges.map((e) => ({
      name: e.name,
      vhost,
      type: e.type,
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    })),
    queues: plan.queues.map((q) => ({ name: q.name, vhost, durable: q.durable, auto_delete: q.autoDelete, arguments: { ...q.arguments } })),
    bindings: plan.bindings.map((b) => ({
      source: b.exchange,
      vhost,
      destination: b.queue,
      destination_type: "queue" as const,
      routing_key: b.routingKey,
      arguments: {},
    })),
  };
}

/** The file text committed as infra/rabbitmq/definitions.json. */
export function renderDefinitions(topology: Topology, vhost = "/"): string {
  return `${JSON.stringify(topologyDefinitions(topology, vhost), null, 2)}\n`;
}
