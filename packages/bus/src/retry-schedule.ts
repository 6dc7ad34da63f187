import type { RetryPolicy } from "./catalog/message-catalog.ts";

/**
 * Where and how long a message waits before its next attempt. The wait tier is the policy's
 * backoff for the attempt that failed; the per-message expiration shortens it by a random share
 * of up to `jitter`, so retries of messages that failed together spread out. A wait queue
 * expires messages only at its head, but every message in a tier carries at most the tier's TTL,
 * so none waits longer than the tier: the delay lies in [tier * (1 - jitter), tier].
 */
export function retryWait(
  policy: RetryPolicy,
  failedAttempt: number,
  random: () => number = Math.random,
): { tierMs: number; expirationMs: number } {
  const index = Math.min(failedAttempt, policy.backoffMs.length) - 1;
  const tierMs = policy.backoffMs[Math.max(0, index)];
  if (tierMs === undefined) throw new Error("retry policy without backoff");
  const expirationMs = Math.max(1, Math.round(tierMs * (1 - policy.jitter * random())));
  return { tierMs, expirationMs };
}

/**
 * The wait tier for a message scheduled `delayMs` ahead: the smallest tier at least that long,
 * with the exact delay as per-message expiration. It arrives after delayMs and at the latest
 * after the tier's TTL (head-of-queue expiry, see above).
 */
export function scheduledWait(tiersMs: readonly number[], delayMs: number): { tierMs: number; expirationMs: number } {
  const tierMs = tiersMs.find((tier) => tier >= delayMs);
  if (tierMs === undefined) throw new RangeError(`a delay of ${delayMs} ms is longer than the longest wait tier (${tiersMs.at(-1)} ms)`);
  return { tierMs, expirationMs: Math.max(1, Math.round(delayMs)) };
}
