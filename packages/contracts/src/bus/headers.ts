import { z } from "zod";

/** Names of the AMQP headers the bus adds beside the message metadata. */
export const BUS_HEADERS = {
  /** 1 on first publish; the bus adds one each time it schedules a retry. */
  attempt: "x-attempt",
  /** Why the previous attempt failed (on retried messages). */
  lastErrorCode: "x-last-error-code",
  lastErrorMessage: "x-last-error-message",
  /** Why a message was parked in a dead-letter queue, and the failure that parked it. */
  deadLetterReason: "x-dead-letter-reason",
  errorCode: "x-error-code",
  errorMessage: "x-error-message",
  errorRetryable: "x-error-retryable",
  failedAt: "x-failed-at",
  failedQueue: "x-failed-queue",
  /** Set by the dead-letter replay. */
  replayedAt: "x-replayed-at",
  replayCount: "x-replay-count",
  /** Epoch milliseconds after which an RPC caller no longer waits for the reply. */
  rpcDeadline: "x-rpc-deadline",
} as const;

/**
 * invalid_message: headers or payload failed their schema (or an unknown schema version), never
 * retried. unknown_type: no handler for the type on that queue. non_retryable: the handler failed
 * with an error classified as not retryable. max_attempts: retryable failures used up the policy.
 * delivery_limit is set by the broker itself (quorum `x-delivery-limit`, a crash loop): such
 * messages carry `x-death` instead of the bus headers.
 */
export const DeadLetterReason = z.enum(["invalid_message", "unknown_type", "non_retryable", "max_attempts"]);
export type DeadLetterReason = z.infer<typeof DeadLetterReason>;

/** The headers of a message the bus parked in a dead-letter queue. */
export const DeadLetterHeaders = z.object({
  [BUS_HEADERS.deadLetterReason]: DeadLetterReason,
  [BUS_HEADERS.errorCode]: z.string(),
  [BUS_HEADERS.errorMessage]: z.string(),
  [BUS_HEADERS.errorRetryable]: z.boolean(),
  [BUS_HEADERS.failedAt]: z.iso.datetime({ offset: true }),
  [BUS_HEADERS.failedQueue]: z.string(),
  [BUS_HEADERS.attempt]: z.int().positive(),
});
export type DeadLetterHeaders = z.infer<typeof DeadLetterHeaders>;
