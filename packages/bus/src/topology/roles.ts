import type { ServiceRoleSpec, Topology } from "./spec.ts";

/** The role the topology gives `service`, if it gives it one. */
export function serviceRole(topology: Topology, service: string): ServiceRoleSpec | undefined {
  return topology.services?.find((role) => role.service === service);
}

/**
 * The part of the topology a service declares itself: the exchanges it publishes to, the work
 * queues it consumes (declared with their wait tiers and parking lot) with their bindings, and the
 * RPC queues it serves. The exchanges its queues are bound from belong to their publisher; the
 * queues it sends commands or calls to belong to their consumer.
 */
export function serviceTopology(topology: Topology, role: ServiceRoleSpec): Topology {
  const consumed = new Set(role.consumes);
  return {
    exchanges: topology.exchanges.filter((exchange) => role.publishesTo.includes(exchange.name)),
    workQueues: topology.workQueues.filter((queue) => consumed.has(queue.name)),
    rpcQueues: topology.rpcQueues.filter((queue) => role.serves.includes(queue.name)),
    bindings: topology.bindings.filter((binding) => consumed.has(binding.queue)),
  };
}

/** Why the bus refuses an operation outside a service's role. */
export function outsideRole(role: ServiceRoleSpec, what: string): Error {
  return new Error(
    `service "${role.service}" ${what}, which its role in the topology does not allow (add it to the role, and the service's RabbitMQ permissions follow)`,
  );
}
