/** What a poll does next when the authority has no final answer yet. */
export type NextPoll = { kind: "poll_again"; delayMs: number } | { kind: "give_up" };

/** When a submission made at `submittedAt` stops being polled and ends in `error`. */
export function giveUpAt(submittedAt: Date, afterSeconds: number): string {
  return new Date(submittedAt.getTime() + afterSeconds * 1000).toISOString();
}

/**
 * How polls space out while the authority has no decision yet: the wait grows by `factor` after
 * each undecided answer, from `initialSeconds` up to `maxSeconds`.
 */
export interface PollBackoff {
  initialSeconds: number;
  factor: number;
  maxSeconds: number;
}

/**
 * The wait after poll `pollNumber` (1 for the first) found no decision: `initialSeconds` grown by
 * `factor` once per poll so far, in whole seconds, never below `initialSeconds` nor above
 * `maxSeconds`. The first poll itself comes `initialSeconds` after the submission, so the waits
 * run initial, initial x factor, initial x factor^2, ... up to the cap. `nextPoll` still holds each
 * wait to the give-up instant and to the poll queue's longest delay.
 */
export function backoffIntervalSeconds(backoff: PollBackoff, pollNumber: number): number {
  const grown = backoff.initialSeconds * backoff.factor ** Math.max(0, pollNumber);
  return Math.max(backoff.initialSeconds, Math.min(backoff.maxSeconds, Math.round(grown)));
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

/** What a poll does after failing for a transient reason (timeout, breaker open, 5xx). */
export type AfterTransientFailure = { kind: "retry" } | { kind: "reschedule"; delayMs: number } | { kind: "give_up" };

/**
 * A poll that was never sent, so the authority was not asked at all: the breaker refused it
 * (open, or half-open with the trial left to another call), or no slot under the shared limits
 * came in time.
 */
export interface NotSent {
  /** When the breaker lets a call through again (its retry-after), in ms. */
  retryAfterMs: number;
  /** How long past the give-up instant a refused poll still waits for the breaker (breakerGraceMs). */
  graceMs: number;
}

/**
 * How long past the give-up instant a poll refused by an open breaker waits for the breaker to
 * let it through: two of the breaker's cycles (open for `resetTimeoutMs`, then a trial of at most
 * `timeoutMs`). An authority back within that time is asked once more, as a slow one is asked at
 * the give-up instant; one still failing its trials after two cycles is given up.
 */
export function breakerGraceMs(breaker: { resetTimeoutMs: number; timeoutMs: number }): number {
  return 2 * (breaker.resetTimeoutMs + breaker.timeoutMs);
}

/**
 * After a transient poll failure: give up once the give-up instant passed; let the bus retry
 * (its retry tiers) while attempts remain and the retry would come before the give-up instant;
 * otherwise schedule a fresh poll ourselves, no later than the give-up instant. So a poll is
 * never parked in the dead-letter queue while the filing may still complete, and never comes
 * back after the give-up instant.
 *
 * Except for a poll that was never sent (`notSent`: breaker open, throttled): the authority was
 * not asked, so the give-up instant alone does not end it. Past that instant the poll is scheduled
 * again for when the breaker lets calls through (its retry-after), within the grace; only a poll
 * still not sent after the grace gives up. An open breaker thus never ends a poll sooner than a slow authority would (which is
 * asked at the give-up instant, and whose answer there decides).
 */
export function afterTransientPollFailure(options: {
  attempt: number;
  retry: { maxAttempts: number; backoffMs: readonly number[] };
  giveUp: string;
  maxDelayMs: number;
  notSent?: NotSent | undefined;
  now?: number;
}): AfterTransientFailure {
  const remaining = Date.parse(options.giveUp) - (options.now ?? Date.now());
  const refusal = options.notSent;
  if (remaining <= 0) {
    const graceLeft = refusal ? remaining + refusal.graceMs : 0;
    if (!refusal || graceLeft <= 0) return { kind: "give_up" };
    return { kind: "reschedule", delayMs: Math.max(1, Math.min(refusal.retryAfterMs, graceLeft, options.maxDelayMs)) };
  }
  const { maxAttempts, backoffMs } = options.retry;
  const backoff = backoffMs[Math.min(options.attempt, backoffMs.length) - 1] ?? backoffMs.at(-1) ?? 1000;
  if (options.attempt < maxAttempts && backoff <= remaining) return { kind: "retry" };
  return { kind: "reschedule", delayMs: Math.max(1, Math.min(backoff, remaining, options.maxDelayMs)) };
}

/**
 * The timeout of one poll: the breaker's, shortened so the poll ends by the give-up instant
 * (but never below `minMs`, the least time an answer can be expected in).
 */
export function pollTimeoutMs(giveUp: string, timeoutMs: number, minMs = 1000, now = Date.now()): number {
  return Math.min(timeoutMs, Math.max(minMs, Date.parse(giveUp) - now));
}
