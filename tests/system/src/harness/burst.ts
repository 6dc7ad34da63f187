import type { ApiClient } from "./api-client.ts";
import type { PlannedFiling } from "./companies.ts";
import { submitWithRetry, type RetriedSubmit } from "./submit-retry.ts";

export interface BurstSubmit {
  filing: PlannedFiling;
  idempotencyKey: string;
  /** The settled submit (202 expected) and every attempt it took. */
  result: RetriedSubmit;
  /** When its first attempt was sent and when it settled (ms since the epoch). */
  sentAt: number;
  settledAt: number;
}

/**
 * Submits `filings` at `ratePerSecond` (each started on schedule, whatever the earlier ones are
 * doing), every one as a careful client: retried with the same Idempotency-Key until settled.
 */
export async function runBurst(
  client: ApiClient,
  filings: readonly PlannedFiling[],
  { ratePerSecond, keyPrefix, deadlineMs = 240_000 }: { ratePerSecond: number; keyPrefix: string; deadlineMs?: number },
): Promise<BurstSubmit[]> {
  const started = Date.now();
  return Promise.all(
    filings.map(async (filing, index) => {
      const due = started + (index * 1000) / ratePerSecond;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      const idempotencyKey = `${keyPrefix}-${index}`;
      const sentAt = Date.now();
      const result = await submitWithRetry(client, filing.kind, filing.body, idempotencyKey, { deadlineMs });
      return { filing, idempotencyKey, result, sentAt, settledAt: Date.now() };
    }),
  );
}
