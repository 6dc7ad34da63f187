import type { Channel, ChannelModel } from "amqplib";
import { deadLetterQueueName, waitQueueName } from "./topology/names.ts";
import type { Topology } from "./topology/spec.ts";

export type QueueKind = "work" | "wait" | "dead_letter" | "rpc";

/** One queue of a topology as the broker holds it now. */
export interface QueueState {
  name: string;
  kind: QueueKind;
  /** The work queue a wait or dead-letter queue belongs to. */
  work_queue?: string;
  /** Ready messages (RabbitMQ's `messageCount`: not those delivered and unacked). */
  messages: number;
  consumers: number;
  /** The broker has no such queue: a topology never declared there, or an RPC queue nobody serves. */
  missing?: true;
}

/** Every queue a topology makes the broker hold (work, its wait tiers, its parking lot; then RPC), in that order. */
export function topologyQueues(topology: Topology): Array<Pick<QueueState, "name" | "kind" | "work_queue">> {
  const queues: Array<Pick<QueueState, "name" | "kind" | "work_queue">> = [];
  for (const spec of topology.workQueues) {
    queues.push({ name: spec.name, kind: "work" });
    for (const tier of spec.waitTiersMs) queues.push({ name: waitQueueName(spec.name, tier), kind: "wait", work_queue: spec.name });
    queues.push({ name: deadLetterQueueName(spec.name), kind: "dead_letter", work_queue: spec.name });
  }
  for (const spec of topology.rpcQueues) queues.push({ name: spec.name, kind: "rpc" });
  return queues;
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: number }).code === 404;
}

/**
 * Depth and consumers of every queue of `topology`, read with passive declares (checkQueue): it
 * changes nothing. A queue the broker does not have is reported `missing` (the broker closes the
 * channel on it; another is opened for the rest).
 */
export async function inspectQueues(connection: ChannelModel, topology: Topology): Promise<QueueState[]> {
  const open = async (): Promise<Channel> => {
    const channel = await connection.createChannel();
    channel.on("error", () => undefined); // a 404 closes the channel: reported as missing below
    return channel;
  };
  let channel = await open();
  const states: QueueState[] = [];
  try {
    for (const queue of topologyQueues(topology)) {
      try {
        const ok = await channel.checkQueue(queue.name);
        states.push({ ...queue, messages: ok.messageCount, consumers: ok.consumerCount });
      } catch (error) {
        if (!isNotFound(error)) throw error;
        states.push({ ...queue, messages: 0, consumers: 0, missing: true });
        channel = await open();
      }
    }
  } finally {
    await channel.close().catch(() => undefined);
  }
  return states;
}
