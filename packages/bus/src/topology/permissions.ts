import { planTopology } from "./plan.ts";
import { serviceTopology } from "./roles.ts";
import type { ServiceRoleSpec, Topology } from "./spec.ts";

/** The default exchange's name in RabbitMQ permissions: commands, RPC requests, replies, retries and parking go through it. */
export const DEFAULT_EXCHANGE_RESOURCE = "amq.default";
/** The pseudo-queue RPC callers consume their replies from. */
export const DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

/** A user's permissions on a vhost: regular expressions over resource names, as `rabbitmqctl set_permissions` takes them. */
export interface ServicePermissions {
  configure: string;
  write: string;
  read: string;
}

/** The names listed, as one anchored alternation; `^$` (nothing) when empty. */
export function exactNames(names: Iterable<string>): string {
  const unique = [...new Set(names)].sort();
  if (unique.length === 0) return "^$";
  return `^(${unique.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

/**
 * What a service's RabbitMQ user may do, derived from its role (RabbitMQ checks `configure` on
 * declare and delete, `write` on publish to an exchange and on the queue side of a bind, `read` on
 * consume, purge and the exchange side of a bind; a passive declare needs nothing):
 * - configure: its own part of the topology (serviceTopology): the exchanges it publishes to, its
 *   work queues with their wait tiers and parking lot, the RPC queues it serves;
 * - write: the default exchange (its commands, RPC requests and replies, and the retries and
 *   parking of what it consumes all go through it), the exchanges it publishes events to, and its
 *   bound work queues (to bind them);
 * - read: its work queues and RPC queues, the exchanges its queues are bound from, and direct
 *   reply-to when it calls RPCs.
 * Another service's queues are never readable: it can neither consume nor purge them.
 */
export function servicePermissions(topology: Topology, role: ServiceRoleSpec): ServicePermissions {
  const own = serviceTopology(topology, role);
  const workQueues = new Set(topology.workQueues.map((queue) => queue.name));
  const usesDefaultExchange =
    role.consumes.length > 0 ||
    role.serves.length > 0 ||
    role.calls.length > 0 ||
    role.publishesTo.some((target) => workQueues.has(target));
  const boundQueues = own.bindings.map((binding) => binding.queue);
  const boundFrom = own.bindings.map((binding) => binding.exchange);
  return {
    configure: exactNames([
      ...own.exchanges.map((exchange) => exchange.name),
      ...planTopology(own).queues.map((queue) => queue.name),
      ...own.rpcQueues.map((queue) => queue.name),
    ]),
    write: exactNames([...(usesDefaultExchange ? [DEFAULT_EXCHANGE_RESOURCE] : []), ...own.exchanges.map((e) => e.name), ...boundQueues]),
    read: exactNames([...role.consumes, ...role.serves, ...boundFrom, ...(role.calls.length > 0 ? [DIRECT_REPLY_TO] : [])]),
  };
}
