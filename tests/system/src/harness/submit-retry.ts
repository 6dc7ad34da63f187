import type { ApiAnswer, ApiClient, FilingKind, SubmitData } from "./api-client.ts";

/** One attempt of a submit: the HTTP status and error code, or the network failure. */
export interface SubmitAttempt {
  status: number | "network-error";
  code?: string;
}

export interface RetriedSubmit {
  /** The last answer: 202, a final refusal (4xx other than "in use"), or when the client gave up the last retryable one. */
  answer: ApiAnswer<SubmitData> | undefined;
  attempts: SubmitAttempt[];
  /** False when the client gave up at its deadline with no settling answer. */
  settled: boolean;
}

/** Answers a client retries with the same Idempotency-Key: the request may or may not have been done. */
export function isRetryable(answer: ApiAnswer<unknown>): boolean {
  return answer.status >= 500 || answer.status === 429 || (answer.status === 409 && answer.error?.code === "IDEMPOTENCY_KEY_IN_USE");
}

/**
 * Submits as a careful client does: on a 5xx, a 409 IDEMPOTENCY_KEY_IN_USE, a 429 or a network
 * failure it waits (the Retry-After, capped at `maxWaitMs`) and sends the same request again
 * with the same Idempotency-Key, until it gets an answer that settles it or gives up at its
 * deadline (then `settled` is false).
 */
export async function submitWithRetry(
  client: ApiClient,
  kind: FilingKind,
  body: unknown,
  idempotencyKey: string,
  { deadlineMs = 180_000, maxWaitMs = 2_000 }: { deadlineMs?: number; maxWaitMs?: number } = {},
): Promise<RetriedSubmit> {
  const deadline = Date.now() + deadlineMs;
  const attempts: SubmitAttempt[] = [];
  for (;;) {
    let answer: ApiAnswer<SubmitData> | undefined;
    try {
      answer = await client.submit(kind, body, idempotencyKey);
      attempts.push({ status: answer.status, ...(answer.error ? { code: answer.error.code } : {}) });
      if (!isRetryable(answer)) return { answer, attempts, settled: true };
    } catch {
      attempts.push({ status: "network-error" });
    }
    if (Date.now() >= deadline) return { answer, attempts, settled: false };
    const retryAfterSeconds = Number(answer?.headers.get("retry-after") ?? "1");
    await new Promise((resolve) => setTimeout(resolve, Math.min(maxWaitMs, Math.max(200, retryAfterSeconds * 1000))));
  }
}
