import type { Channel } from "amqplib";
import { planTopology } from "./plan.ts";
import { rpcQueueDeclaration } from "./queue-arguments.ts";
import type { RpcQueueSpec, Topology } from "./spec.ts";

/**
 * Declares every exchange, queue and binding of the topology (idempotent: the bus runs it on
 * every connect and after every recovery). RPC queues are not among them: their servers declare
 * them (declareRpcQueue) so that they exist exactly while someone serves them.
 */
export async function declareTopology(channel: Channel, topology: Topology): Promise<void> {
  const plan = planTopology(topology);
  for (const exchange of plan.exchanges) {
    await channel.assertExchange(exchange.name, exchange.type, { durable: true, autoDelete: false, internal: false });
  }
  for (const queue of plan.queues) {
    await channel.assertQueue(queue.name, { durable: queue.durable, autoDelete: queue.autoDelete, arguments: queue.arguments });
  }
  for (const binding of plan.bindings) {
    await channel.bindQueue(binding.queue, binding.exchange, binding.routingKey);
  }
}

export async function declareRpcQueue(channel: Channel, spec: RpcQueueSpec): Promise<void> {
  const queue = rpcQueueDeclaration(spec);
  await channel.assertQueue(queue.name, { durable: queue.durable, autoDelete: queue.autoDelete, arguments: queue.arguments });
}
