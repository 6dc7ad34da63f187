/** What a poll does next when the authority has no final answer yet. */
export type NextPoll = { kind: "poll_again"; delayMs: number } | { kind: "give_up" };

/** When a submission made at `submittedAt` stops being polled and ends in `error`. */
export function giveUpAt(submittedAt: Date, afterSeconds: number): string {
  return new Date(submittedAt.getTime() + afterSeconds * 1000).toISOString();
}

/**
 * The next poll after a pending answer: after the interval the authority asked for, never later
 * than the give-up instant (a last poll then), nor later than the longest delay the poll queue
 * can hold; once the give-up instant has passed, give up.
 */
export function nextPoll(intervalSeconds: number, giveUp: string, maxDelayMs: number, now = Date.now()): NextPoll {
  const remaining = Date.parse(giveUp) - now;
  if (remaining <= 0) return { kind: "give_up" };
  return { kind: "poll_again", delayMs: Math.max(1, Math.min(intervalSeconds * 1000, remaining, maxDelayMs)) };
}

/**
 * What to do after a poll failed for a transient reason (timeout, breaker open, 5xx):
 * give_up once the give-up instant passed; retry through the bus's retry tiers while attempts
 * remain; on the last attempt reschedule a fresh poll instead, so the poll is never parked in the
 * dead-letter queue while the filing may still complete.
 */
export function afterTransientPollFailure(options: { attempt: number; maxAttempts: number; giveUp: string; now?: number }): "give_up" | "retry" | "reschedule" {
  const now = options.now ?? Date.now();
  if (Date.parse(options.giveUp) <= now) return "give_up";
  return options.attempt < options.maxAttempts ? "retry" : "reschedule";
}

/**
 * The timeout of one poll: the breaker's, shortened so the poll ends by the give-up instant
 * (but never below `minMs`, the least time an answer can be expected in).
 */
export function pollTimeoutMs(giveUp: string, timeoutMs: number, minMs = 1000, now = Date.now()): number {
  return Math.min(timeoutMs, Math.max(minMs, Date.parse(giveUp) - now));
}
