import { BUS_HEADERS, DeadLetterHeaders } from "@dormant/contracts";
import type { ConfirmChannel, GetMessage } from "amqplib";
import { republishProperties } from "./envelope.ts";
import { deadLetterQueueName } from "./topology/names.ts";

export interface ReplayOptions {
  /** The work queue whose parking lot is replayed (messages go back to this queue). */
  queue: string;
  /** At most this many messages (default: all there are now). */
  limit?: number;
  /** Only messages of this type; the others stay parked. */
  type?: string;
  /** List what would be replayed, change nothing. */
  dryRun?: boolean;
}

/** What an operator needs to decide about a parked message. */
export interface ParkedMessage {
  messageId: string | undefined;
  type: string | undefined;
  /** invalid_message | unknown_type | non_retryable | max_attempts, or delivery_limit (broker). */
  reason: string;
  error: string | undefined;
  failedAt: string | undefined;
  attempts: number | undefined;
}

export interface ReplayResult {
  /** Replayed (or, in a dry run, replayable) messages. */
  messages: ParkedMessage[];
  /** Parked messages left where they are (other types). */
  kept: number;
}

const CLEARED_HEADERS = [
  BUS_HEADERS.deadLetterReason,
  BUS_HEADERS.errorCode,
  BUS_HEADERS.errorMessage,
  BUS_HEADERS.errorRetryable,
  BUS_HEADERS.failedAt,
  BUS_HEADERS.failedQueue,
  BUS_HEADERS.lastErrorCode,
  BUS_HEADERS.lastErrorMessage,
  "x-death",
  "x-first-death-exchange",
  "x-first-death-queue",
  "x-first-death-reason",
];

export function describeParked(message: GetMessage): ParkedMessage {
  const headers = (message.properties.headers ?? {}) as Record<string, unknown>;
  const parked = DeadLetterHeaders.safeParse(headers);
  const base = { messageId: message.properties.messageId as string | undefined, type: message.properties.type as string | undefined };
  if (parked.success) {
    return {
      ...base,
      reason: parked.data[BUS_HEADERS.deadLetterReason],
      error: `${parked.data[BUS_HEADERS.errorCode]}: ${parked.data[BUS_HEADERS.errorMessage]}`,
      failedAt: parked.data[BUS_HEADERS.failedAt],
      attempts: parked.data[BUS_HEADERS.attempt],
    };
  }
  const brokerReason = headers["x-first-death-reason"];
  return {
    ...base,
    reason: typeof brokerReason === "string" ? brokerReason : "unknown",
    error: undefined,
    failedAt: undefined,
    attempts: undefined,
  };
}

/**
 * Moves parked messages back to their work queue, one at a time: each is republished (confirmed,
 * mandatory) with its message id and metadata, the failure headers cleared and the attempt count
 * reset, and only then acked in the parking lot. A crash in between leaves a duplicate, never a
 * loss; consumers dedupe on message_id. Messages not selected are returned to the parking lot.
 */
export async function replayDeadLetters(channel: ConfirmChannel, options: ReplayOptions): Promise<ReplayResult> {
  const parkingLot = deadLetterQueueName(options.queue);
  await channel.checkQueue(options.queue);
  const limit = options.limit ?? (await channel.checkQueue(parkingLot)).messageCount;
  const held: GetMessage[] = [];
  const messages: ParkedMessage[] = [];
  let kept = 0;
  let returned = false;
  const onReturn = () => {
    returned = true;
  };
  channel.on("return", onReturn);
  try {
    while (messages.length < limit) {
      const message = await channel.get(parkingLot, { noAck: false });
      if (!message) break;
      if (options.type && message.properties.type !== options.type) {
        kept++;
        held.push(message);
        continue;
      }
      messages.push(describeParked(message));
      if (options.dryRun) {
        held.push(message);
        continue;
      }
      channel.publish("", options.queue, message.content, { ...replayProperties(message), mandatory: true });
      await channel.waitForConfirms();
      if (returned) throw new Error(`${options.queue} did not take the replayed message ${message.properties.messageId}; it stays parked`);
      channel.ack(message);
    }
  } finally {
    channel.removeListener("return", onReturn);
    for (const message of held) channel.nack(message, false, true);
  }
  return { messages, kept };
}

/** The parked message's properties with the failure cleared, the attempts reset, the replay noted. */
function replayProperties(message: GetMessage) {
  const headers = { ...(message.properties.headers as Record<string, unknown> | undefined) };
  for (const name of CLEARED_HEADERS) delete headers[name];
  const previous = headers[BUS_HEADERS.replayCount];
  return republishProperties(
    { ...message, properties: { ...message.properties, headers } },
    {
      [BUS_HEADERS.attempt]: 1,
      [BUS_HEADERS.replayedAt]: new Date().toISOString(),
      [BUS_HEADERS.replayCount]: (typeof previous === "number" ? previous : 0) + 1,
    },
  );
}
