// `admin queues`: depth and consumers of every queue of the platform's topology (work queues, their
// wait tiers and parking lots, RPC queues), read with passive declares on the broker and vhost of
// AMQP_URL: nothing changes. Prints one JSON object.
import { parseArgs } from "node:util";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { connect } from "amqplib";
import { inspectQueues } from "../inspect-queues.ts";
import { type BusCliContext, DEFAULT_AMQP_URL, UsageError } from "./context.ts";

export const QUEUES_USAGE = "  admin queues";

export const QUEUES_HELP = `Every queue of the platform's bus topology (packages/contracts PLATFORM_TOPOLOGY): each work
queue, its wait (delay) queues and its dead-letter queue (*.dlq), and the RPC queues, with
"messages" (ready) and "consumers"; "missing": true for a queue the broker does not have (an RPC
queue nobody serves). AMQP_URL selects the broker and vhost. No options.`;

export async function runQueues(args: string[], context: BusCliContext): Promise<number> {
  try {
    parseArgs({ args, options: {}, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const connection = await connect(context.env.AMQP_URL ?? DEFAULT_AMQP_URL, { clientProperties: { connection_name: "admin queues" } });
  try {
    context.stdout.write(`${JSON.stringify({ queues: await inspectQueues(connection, PLATFORM_TOPOLOGY) })}\n`);
    return 0;
  } finally {
    await connection.close().catch(() => undefined);
  }
}
