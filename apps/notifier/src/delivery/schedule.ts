/**
 * When a failed delivery is tried again: the wait after failed attempt n (1-based) is
 * schedule[n - 1] seconds, the last entry repeating; once the next attempt would come later than
 * `horizonSeconds` after the first attempt, the delivery is given up instead.
 */
export function nextRetry(
  schedule: readonly number[],
  horizonSeconds: number,
  failedAttempt: number,
  firstAttemptAt: Date,
  now: Date,
): { retryAt: Date; delayMs: number } | null {
  const seconds = schedule[Math.min(failedAttempt, schedule.length) - 1] ?? schedule.at(-1) ?? 60;
  const retryAt = new Date(now.getTime() + seconds * 1000);
  if (retryAt.getTime() > firstAttemptAt.getTime() + horizonSeconds * 1000) return null;
  return { retryAt, delayMs: seconds * 1000 };
}
