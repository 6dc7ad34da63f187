// Moves parked messages from a work queue's dead-letter queue back to the work queue.
// Usage: pnpm --filter @dormant/bus replay-dead-letters --queue <work queue> [--type <message type>]
//          [--limit 10] [--dry-run]        (AMQP_URL selects the broker and vhost)
// Prints one JSON line per message (replayed, or replayable with --dry-run) and a summary line.
import { parseArgs } from "node:util";
import { PLATFORM_TOPOLOGY } from "@dormant/contracts";
import { connect } from "amqplib";
import { replayDeadLetters } from "../replay.ts";

const { values } = parseArgs({
  options: {
    queue: { type: "string" },
    type: { type: "string" },
    limit: { type: "string" },
    "dry-run": { type: "boolean", default: false },
  },
});
const workQueues: string[] = PLATFORM_TOPOLOGY.workQueues.map((q) => q.name);
if (!values.queue || !workQueues.includes(values.queue)) {
  process.stderr.write(`--queue must be one of: ${workQueues.join(", ")}\n`);
  process.exit(2);
}
const limit = values.limit === undefined ? undefined : Number(values.limit);
if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
  process.stderr.write("--limit must be a positive integer\n");
  process.exit(2);
}

const connection = await connect(process.env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672", {
  clientProperties: { connection_name: "replay-dead-letters" },
});
try {
  const channel = await connection.createConfirmChannel();
  const result = await replayDeadLetters(channel, {
    queue: values.queue,
    ...(limit ? { limit } : {}),
    ...(values.type ? { type: values.type } : {}),
    dryRun: values["dry-run"],
  });
  for (const message of result.messages) process.stdout.write(`${JSON.stringify(message)}\n`);
  const verb = values["dry-run"] ? "replayable" : "replayed";
  process.stdout.write(`${JSON.stringify({ [verb]: result.messages.length, kept: result.kept, queue: values.queue })}\n`);
} finally {
  await connection.close();
}
