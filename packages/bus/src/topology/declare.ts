import type { Channel, ChannelModel } from "amqplib";
import { planTopology } from "./plan.ts";
import { rpcQueueDeclaration } from "./queue-arguments.ts";
import type { RpcQueueSpec, Topology } from "./spec.ts";

/** AMQP's reply code for a refused permission (ACCESS_REFUSED). */
const ACCESS_REFUSED = 403;

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

/**
 * Declares the topology as far as the broker permits, on a channel of its own: under a user with
 * every permission (development, tests) all of it, as declareTopology; under a service's own user
 * (servicePermissions) the first entry that is not its own is refused and the rest is left to the
 * definitions loaded at deploy (infra/rabbitmq/README.md). Any other failure is thrown. Resolves
 * true when everything was declared.
 */
export async function declareTopologyAsPermitted(model: ChannelModel, topology: Topology): Promise<boolean> {
  const channel = await model.createChannel();
  // A refusal closes the channel; the refused call rejects with it, which is handled below.
  channel.on("error", () => undefined);
  try {
    await declareTopology(channel, topology);
  } catch (error) {
    if ((error as { code?: unknown }).code === ACCESS_REFUSED) return false;
    throw error;
  }
  await channel.close();
  return true;
}

export async function declareRpcQueue(channel: Channel, spec: RpcQueueSpec): Promise<void> {
  const queue = rpcQueueDeclaration(spec);
  await channel.assertQueue(queue.name, { durable: queue.durable, autoDelete: queue.autoDelete, arguments: queue.arguments });
}
