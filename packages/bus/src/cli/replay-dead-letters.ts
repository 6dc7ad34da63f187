// `admin replay-dead-letters`: moves parked messages from a work queue's dead-letter queue back to
// the work queue (replay.ts), on the broker and vhost of AMQP_URL. Prints one JSON object: the
// messages replayed (or replayable, with --dry-run), how many of other types stayed parked, the queue.
import { parseArgs } from "node:util";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { connect } from "amqplib";
import { replayDeadLetters } from "../replay.ts";
import { type BusCliContext, DEFAULT_AMQP_URL, UsageError } from "./context.ts";

export const REPLAY_USAGE = "  admin replay-dead-letters --queue WORK_QUEUE [--type MESSAGE_TYPE] [--limit N] [--dry-run]";

export const REPLAY_HELP = `Moves the messages parked in WORK_QUEUE.dlq back to WORK_QUEUE, one at a time, each acked in the
parking lot only after the broker confirmed its copy (a crash leaves a duplicate, never a loss;
consumers dedupe on message_id). Failure headers are cleared, x-attempt reset, x-replayed-at and
x-replay-count set. Fix the cause first.
  --queue WORK_QUEUE   one of the platform's work queues (admin status lists them)
  --type TYPE          only messages of this type; the others stay parked
  --limit N            at most N messages (default: every message parked now)
  --dry-run            list what would be replayed, change nothing
AMQP_URL selects the broker and vhost.`;

function parseReplayArgs(args: string[]) {
  let values: { queue?: string; type?: string; limit?: string; "dry-run"?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { queue: { type: "string" }, type: { type: "string" }, limit: { type: "string" }, "dry-run": { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const workQueues: string[] = PLATFORM_TOPOLOGY.workQueues.map((q) => q.name);
  if (!values.queue || !workQueues.includes(values.queue)) throw new UsageError(`--queue must be one of: ${workQueues.join(", ")}`);
  if (values.limit !== undefined && !/^[1-9]\d{0,8}$/.test(values.limit)) throw new UsageError("--limit must be a positive whole number");
  return {
    queue: values.queue,
    ...(values.limit ? { limit: Number(values.limit) } : {}),
    ...(values.type ? { type: values.type } : {}),
    dryRun: values["dry-run"] ?? false,
  };
}

export async function runReplayDeadLetters(args: string[], context: BusCliContext): Promise<number> {
  const options = parseReplayArgs(args);
  const connection = await connect(context.env.AMQP_URL ?? DEFAULT_AMQP_URL, {
    clientProperties: { connection_name: "admin replay-dead-letters" },
  });
  try {
    const channel = await connection.createConfirmChannel();
    const result = await replayDeadLetters(channel, options);
    // Closing the channel waits for the broker to have processed every ack sent on it: closing
    // only the connection can drop the last acks of a quorum queue, leaving the replayed
    // messages parked as well (replayed again by the next run).
    await channel.close();
    const verb = options.dryRun ? "replayable" : "replayed";
    context.stdout.write(
      `${JSON.stringify({ queue: options.queue, [verb]: result.messages.length, kept: result.kept, messages: result.messages })}\n`,
    );
    return 0;
  } finally {
    await connection.close().catch(() => undefined);
  }
}
