import type { ApiClient, FilingKind } from "../src/harness/api-client.ts";

export interface LoadRequest {
  kind: FilingKind;
  body: Record<string, unknown>;
  /** Who sends it (its key); the loop's client when absent. */
  client?: ApiClient;
}

export interface SubmitSample {
  /** When the request was sent (Date.now()). */
  sentAt: number;
  latencyMs: number;
  status: number | "network-error";
  code?: string;
  filingId?: string;
  /** The client that sent it: the filing is visible only to its key. */
  client: ApiClient;
}

/**
 * Open-loop load: sends one submit every 1/rate seconds for `seconds`, whatever the earlier
 * ones are doing (as independent clients would), each with a fresh Idempotency-Key; answers
 * every request's send time, latency and answer.
 */
export async function openLoop(
  client: ApiClient,
  { rate, seconds, keyPrefix, request }: { rate: number; seconds: number; keyPrefix: string; request: (index: number) => LoadRequest },
): Promise<SubmitSample[]> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const pending: Array<Promise<SubmitSample>> = [];
  for (let index = 0; index < total; index++) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const { kind, body, client: sender = client } = request(index);
    const sentAt = Date.now();
    pending.push(
      sender.submit(kind, body, `${keyPrefix}-${index}`).then(
        (answer) => ({
          client: sender,
          sentAt,
          latencyMs: answer.elapsedMs,
          status: answer.status,
          ...(answer.error ? { code: answer.error.code } : {}),
          ...(answer.data ? { filingId: answer.data.filing_id } : {}),
        }),
        () => ({ client: sender, sentAt, latencyMs: Date.now() - sentAt, status: "network-error" as const }),
      ),
    );
  }
  return Promise.all(pending);
}
