import { deadLetterQueueName, waitQueueName } from "./names.ts";
import { deadLetterQueueDeclaration, type QueueDeclaration, waitQueueDeclaration, workQueueDeclaration } from "./queue-arguments.ts";
import type { BindingSpec, ExchangeSpec, Topology } from "./spec.ts";

/** Everything a topology makes the broker hold, flattened: what declareTopology declares. */
export interface TopologyPlan {
  readonly exchanges: readonly ExchangeSpec[];
  /** Parking lots first, then wait tiers, then work queues (dead-letter targets before sources). */
  readonly queues: readonly QueueDeclaration[];
  readonly bindings: readonly BindingSpec[];
}

export function planTopology(topology: Topology): TopologyPlan {
  const queues: QueueDeclaration[] = [];
  for (const spec of topology.workQueues) {
    queues.push(deadLetterQueueDeclaration(spec));
    for (const tier of spec.waitTiersMs) queues.push(waitQueueDeclaration(spec, waitQueueName(spec.name, tier), tier));
    queues.push(workQueueDeclaration(spec));
  }
  return { exchanges: topology.exchanges, queues, bindings: topology.bindings };
}

/** Every problem of a topology (an empty list when it is sound). */
export function topologyProblems(topology: Topology): string[] {
  const problems: string[] = [];
  const exchanges = new Set<string>();
  for (const exchange of topology.exchanges) {
    if (exchange.name === "" || exchange.name.startsWith("amq.")) problems.push(`exchange "${exchange.name}": reserved name`);
    if (exchanges.has(exchange.name)) problems.push(`exchange "${exchange.name}" declared twice`);
    exchanges.add(exchange.name);
  }
  const queueNames = new Set<string>();
  const claim = (name: string) => {
    if (queueNames.has(name)) problems.push(`queue "${name}" declared twice`);
    queueNames.add(name);
  };
  const workQueues = new Set<string>();
  for (const spec of topology.workQueues) {
    workQueues.add(spec.name);
    claim(spec.name);
    claim(deadLetterQueueName(spec.name));
    if (spec.waitTiersMs.length === 0) problems.push(`work queue "${spec.name}": needs at least one wait tier`);
    spec.waitTiersMs.forEach((tier, i) => {
      if (!Number.isInteger(tier) || tier <= 0) problems.push(`work queue "${spec.name}": tier ${tier} is not a positive integer`);
      const previous = spec.waitTiersMs[i - 1];
      if (previous !== undefined && tier <= previous) problems.push(`work queue "${spec.name}": tiers must ascend`);
      claim(waitQueueName(spec.name, tier));
    });
    if (!Number.isInteger(spec.deliveryLimit) || spec.deliveryLimit < 1) {
      problems.push(`work queue "${spec.name}": deliveryLimit must be a positive integer`);
    }
  }
  for (const spec of topology.rpcQueues) {
    claim(spec.name);
    if (!Number.isInteger(spec.maxRequestAgeMs) || spec.maxRequestAgeMs <= 0) {
      problems.push(`rpc queue "${spec.name}": maxRequestAgeMs must be a positive integer`);
    }
  }
  for (const binding of topology.bindings) {
    if (!exchanges.has(binding.exchange)) problems.push(`binding to unknown exchange "${binding.exchange}"`);
    if (!workQueues.has(binding.queue)) problems.push(`binding of "${binding.exchange}" to "${binding.queue}", which is not a work queue`);
  }
  problems.push(...serviceRoleProblems(topology, exchanges, workQueues));
  return problems;
}

/** The services' roles name only entries of the topology, and no queue has two consumers. */
function serviceRoleProblems(topology: Topology, exchanges: Set<string>, workQueues: Set<string>): string[] {
  const problems: string[] = [];
  const rpcQueues = new Set(topology.rpcQueues.map((q) => q.name));
  const services = new Set<string>();
  const consumedBy = new Map<string, string>();
  for (const role of topology.services ?? []) {
    const where = `service "${role.service}"`;
    if (!/^[a-z][a-z0-9-]*$/.test(role.service)) problems.push(`${where}: names are lower-case words joined by hyphens`);
    if (services.has(role.service)) problems.push(`${where} has two roles`);
    services.add(role.service);
    const claim = (queue: string) => {
      const other = consumedBy.get(queue);
      if (other !== undefined && other !== role.service) problems.push(`"${queue}" is consumed by both "${other}" and "${role.service}"`);
      consumedBy.set(queue, role.service);
    };
    for (const queue of role.consumes) {
      if (!workQueues.has(queue)) problems.push(`${where} consumes "${queue}", which is not a work queue`);
      claim(queue);
    }
    for (const queue of role.serves) {
      if (!rpcQueues.has(queue)) problems.push(`${where} serves "${queue}", which is not an rpc queue`);
      claim(queue);
    }
    for (const queue of role.calls) if (!rpcQueues.has(queue)) problems.push(`${where} calls "${queue}", which is not an rpc queue`);
    for (const target of role.publishesTo) {
      if (!exchanges.has(target) && !workQueues.has(target))
        problems.push(`${where} publishes to "${target}": no such exchange or work queue`);
    }
  }
  return problems;
}

/** Checks a topology once, where it is written, so a mistake fails at import rather than at connect. */
export function defineTopology<const T extends Topology>(topology: T): T {
  const problems = topologyProblems(topology);
  if (problems.length > 0) throw new Error(`invalid bus topology:\n  - ${problems.join("\n  - ")}`);
  return topology;
}
