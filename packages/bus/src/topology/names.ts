/** Names the bus derives from a work queue's name. */

/** `5000` -> `5s`, `120000` -> `2m`, `250` -> `250ms`. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** The TTL queue of one wait tier: `orders.work.wait.5s`. */
export function waitQueueName(workQueue: string, tierMs: number): string {
  return `${workQueue}.wait.${formatDuration(tierMs)}`;
}

/** The parking lot of a work queue: `orders.work.dlq`. */
export function deadLetterQueueName(workQueue: string): string {
  return `${workQueue}.dlq`;
}
