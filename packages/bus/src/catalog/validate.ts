import { MessageTypeName } from "@dormant/contracts";
import { topicMatches } from "../topology/topic.ts";
import type { Topology } from "../topology/spec.ts";
import type { MessageCatalog, MessageDefinition } from "./message-catalog.ts";
import type { RpcCatalog } from "./rpc-catalog.ts";

/** Work queues a message is consumed from. */
export function consumerQueues(definition: MessageDefinition): readonly string[] {
  return definition.route.kind === "command" ? [definition.route.queue] : definition.route.consumers;
}

/**
 * Every way the catalogs disagree with themselves or with the topology: unknown queues or
 * exchanges, event consumers that the bindings do not deliver to (or bound queues left out, whose
 * handler maps would then go unchecked), backoffs that are not wait tiers, nonsense policies.
 */
export function catalogProblems(messages: MessageCatalog, rpc: RpcCatalog, topology: Topology): string[] {
  const problems: string[] = [];
  const workQueues = new Map(topology.workQueues.map((q) => [q.name, q]));
  const exchanges = new Set(topology.exchanges.map((e) => e.name));
  const rpcQueues = new Set(topology.rpcQueues.map((q) => q.name));

  for (const [type, definition] of Object.entries(messages)) {
    const where = `message "${type}"`;
    if (!MessageTypeName.safeParse(type).success) problems.push(`${where}: type names are dotted lower-case words`);
    if (!Number.isInteger(definition.schemaVersion) || definition.schemaVersion < 1)
      problems.push(`${where}: schemaVersion must be a positive integer`);
    if (!Number.isInteger(definition.timeoutMs) || definition.timeoutMs <= 0)
      problems.push(`${where}: timeoutMs must be a positive integer`);
    const { maxAttempts, backoffMs, jitter } = definition.retry;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) problems.push(`${where}: retry.maxAttempts must be a positive integer`);
    if (maxAttempts > 1 && backoffMs.length === 0) problems.push(`${where}: retry.backoffMs is empty`);
    if (!(jitter >= 0 && jitter < 1)) problems.push(`${where}: retry.jitter must be in [0, 1)`);

    const route = definition.route;
    if (route.kind === "event") {
      if (!exchanges.has(route.exchange)) problems.push(`${where}: unknown exchange "${route.exchange}"`);
      if (route.consumers.length === 0) problems.push(`${where}: an event needs at least one consuming queue`);
      const bound = new Set(
        topology.bindings.filter((b) => b.exchange === route.exchange && topicMatches(b.routingKey, route.routingKey)).map((b) => b.queue),
      );
      for (const queue of route.consumers) {
        if (!bound.has(queue)) problems.push(`${where}: no binding delivers "${route.routingKey}" from "${route.exchange}" to "${queue}"`);
      }
      for (const queue of bound) {
        if (!route.consumers.includes(queue)) problems.push(`${where}: "${queue}" is bound to receive it but not listed in consumers`);
      }
    }
    for (const queue of consumerQueues(definition)) {
      const spec = workQueues.get(queue);
      if (!spec) {
        problems.push(`${where}: "${queue}" is not a work queue of the topology`);
        continue;
      }
      for (const backoff of backoffMs) {
        if (!spec.waitTiersMs.includes(backoff)) problems.push(`${where}: backoff ${backoff} ms is not a wait tier of "${queue}"`);
      }
    }
  }

  for (const [type, definition] of Object.entries(rpc)) {
    const where = `rpc "${type}"`;
    if (!MessageTypeName.safeParse(type).success) problems.push(`${where}: type names are dotted lower-case words`);
    if (!rpcQueues.has(definition.queue)) problems.push(`${where}: "${definition.queue}" is not an rpc queue of the topology`);
    if (!Number.isInteger(definition.schemaVersion) || definition.schemaVersion < 1)
      problems.push(`${where}: schemaVersion must be a positive integer`);
    if (!Number.isInteger(definition.timeoutMs) || definition.timeoutMs <= 0)
      problems.push(`${where}: timeoutMs must be a positive integer`);
  }
  return problems;
}
