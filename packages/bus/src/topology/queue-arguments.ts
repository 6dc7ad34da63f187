import { deadLetterQueueName } from "./names.ts";
import type { RpcQueueSpec, WorkQueueSpec } from "./spec.ts";

/**
 * The arguments of every queue the bus declares. declareTopology and the definitions export both
 * read them from here: a queue declared with different arguments than it already has fails with
 * PRECONDITION_FAILED, so the two must never drift.
 */

export interface QueueDeclaration {
  readonly name: string;
  readonly durable: boolean;
  readonly autoDelete: boolean;
  readonly arguments: Readonly<Record<string, string | number>>;
}

/**
 * Quorum dead-lettering is at-most-once unless the strategy is at-least-once, which in turn
 * requires `reject-publish` overflow (the queues have no length limit, so nothing is rejected).
 */
const AT_LEAST_ONCE_DEAD_LETTERING = {
  "x-dead-letter-strategy": "at-least-once",
  "x-overflow": "reject-publish",
} as const;

export function workQueueDeclaration(spec: WorkQueueSpec): QueueDeclaration {
  return {
    name: spec.name,
    durable: true,
    autoDelete: false,
    arguments: {
      "x-queue-type": "quorum",
      "x-delivery-limit": spec.deliveryLimit,
      "x-dead-letter-exchange": "",
      "x-dead-letter-routing-key": deadLetterQueueName(spec.name),
      ...AT_LEAST_ONCE_DEAD_LETTERING,
    },
  };
}

/** A wait tier: messages sit out the TTL, then the broker dead-letters them back to the work queue. */
export function waitQueueDeclaration(spec: WorkQueueSpec, name: string, tierMs: number): QueueDeclaration {
  return {
    name,
    durable: true,
    autoDelete: false,
    arguments: {
      "x-queue-type": "quorum",
      "x-message-ttl": tierMs,
      "x-dead-letter-exchange": "",
      "x-dead-letter-routing-key": spec.name,
      ...AT_LEAST_ONCE_DEAD_LETTERING,
    },
  };
}

/**
 * The parking lot. Deliberately without `x-delivery-limit`: it has no dead-letter target, so a
 * limit would make the broker drop parked messages that a crashing replay touched too often.
 */
export function deadLetterQueueDeclaration(spec: WorkQueueSpec): QueueDeclaration {
  return { name: deadLetterQueueName(spec.name), durable: true, autoDelete: false, arguments: { "x-queue-type": "quorum" } };
}

/**
 * RPC request queues are classic, transient and auto-delete: requests are worth nothing once the
 * caller stopped waiting (it retries with the same idempotency key), and a queue that vanishes
 * with its last server turns "nobody serves this" into an immediate basic.return.
 */
export function rpcQueueDeclaration(spec: RpcQueueSpec): QueueDeclaration {
  return {
    name: spec.name,
    durable: false,
    autoDelete: true,
    arguments: { "x-queue-type": "classic", "x-message-ttl": spec.maxRequestAgeMs },
  };
}
