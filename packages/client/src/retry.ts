// Retrying one request: 429, 502 and 503 (and 409 IDEMPOTENCY_KEY_IN_USE: the first request with
// the key is still running) are sent again, unchanged (same Idempotency-Key), after the answer's
// Retry-After (seconds or an HTTP date) or, without one, an exponential back-off; both with
// jitter, within a number of attempts and a total wait.

export interface RetryPolicy {
  /** Attempts in all, the first included (1: never retry). Default 4. */
  maxAttempts: number;
  /** The most time spent waiting between the attempts of one call, in all. Default 60 000 ms. */
  maxTotalWaitMs: number;
  /** The first wait when the answer has no Retry-After, doubled each time. Default 500 ms. */
  baseDelayMs: number;
  /** The longest back-off without Retry-After. Default 8 000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = { maxAttempts: 4, maxTotalWaitMs: 60_000, baseDelayMs: 500, maxDelayMs: 8_000 };

/** Statuses whose requests are sent again with the same Idempotency-Key. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503]);

export type Sleep = (ms: number) => Promise<void>;
const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After as milliseconds from `now`: integer seconds or an HTTP date; undefined when absent or malformed. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether the answer asks to be retried: 429/502/503, or 409 IDEMPOTENCY_KEY_IN_USE. */
export async function isRetryable(response: Response): Promise<boolean> {
  if (RETRYABLE_STATUSES.has(response.status)) return true;
  if (response.status !== 409) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return (
    typeof body === "object" && body !== null && "error" in body && (body.error as { code?: unknown })?.code === "IDEMPOTENCY_KEY_IN_USE"
  );
}

/** The wait before attempt `attempt + 1`: Retry-After plus up to 10% jitter, else a jittered exponential back-off. */
export function delayBeforeRetry(response: Response, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const asked = retryAfterMs(response.headers.get("retry-after"));
  if (asked !== undefined) return Math.round(asked + asked * 0.1 * random());
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export interface SendOptions {
  policy: RetryPolicy;
  fetch?: (request: Request) => Promise<Response>;
  sleep?: Sleep;
}

/**
 * Sends `request` (a fresh clone each attempt, so the body and headers are the same every time)
 * and answers the first answer not to retry, or the last one when the attempts or the total wait
 * run out. A wait that would go past `maxTotalWaitMs` is not started.
 */
export async function sendWithRetry(
  request: Request,
  { policy, fetch: send = (r) => fetch(r), sleep: wait = sleep }: SendOptions,
): Promise<Response> {
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    const response = await send(request.clone());
    if (attempt >= policy.maxAttempts || !(await isRetryable(response))) return response;
    const delay = delayBeforeRetry(response, attempt, policy);
    if (waited + delay > policy.maxTotalWaitMs) return response;
    await response.body?.cancel();
    await wait(delay);
    waited += delay;
  }
}
