/**
 * The wait tiers of the platform's work queues (TTL queues a message sits in before it comes
 * back: retries with backoff, and scheduled polls). The topology declares them; a retry policy's
 * backoff values must be tiers of the queue it consumes from (the bus checks that at connect).
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Outcome and event queues: 1 s, 5 s, 30 s, 2 min, 10 min. */
export const EVENT_WAIT_TIERS_MS = [1 * SECOND, 5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE] as const;

/**
 * Poll queues also carry scheduled polls: the authority says when to come back (1 s in the
 * simulator, seconds to minutes for real); a poll is parked in the smallest tier that is at
 * least that long, with a per-message expiration of exactly the requested delay.
 */
export const POLL_WAIT_TIERS_MS = [
  1 * SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  30 * SECOND,
  1 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
] as const;

/**
 * The notifier's delivery retries (notifier.deliveries): the first retries within a minute, then
 * up to an hour per wait; longer waits (hours, in the 3-day retry schedule) take several hops.
 */
export const WEBHOOK_WAIT_TIERS_MS = [1 * SECOND, 5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 60 * MINUTE] as const;
