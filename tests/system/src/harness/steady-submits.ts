import type { ApiClient } from "./api-client.ts";
import type { BurstSubmit } from "./burst.ts";
import type { PlannedFiling } from "./companies.ts";
import { submitWithRetry } from "./submit-retry.ts";

/**
 * Submits `filings` in order at `ratePerSecond`, each started on schedule whatever the earlier
 * ones are doing, until `until` settles (or the list runs out); each one as a careful client:
 * retried with the same Idempotency-Key until settled (`submitWithRetry`). Answers every submit
 * started, once each has settled or its client gave up.
 */
export async function submitSteadily(
  client: ApiClient,
  filings: readonly PlannedFiling[],
  {
    ratePerSecond,
    keyPrefix,
    until,
    deadlineMs = 240_000,
  }: { ratePerSecond: number; keyPrefix: string; until: Promise<unknown>; deadlineMs?: number },
): Promise<BurstSubmit[]> {
  let stopped = false;
  void until.finally(() => {
    stopped = true;
  });
  const started = Date.now();
  const submits: Array<Promise<BurstSubmit>> = [];
  for (const [index, filing] of filings.entries()) {
    const due = started + (index * 1000) / ratePerSecond;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    if (stopped) break;
    const idempotencyKey = `${keyPrefix}-${index}`;
    const sentAt = Date.now();
    submits.push(
      submitWithRetry(client, filing.kind, filing.body, idempotencyKey, { deadlineMs }).then((result) => ({
        filing,
        idempotencyKey,
        result,
        sentAt,
        settledAt: Date.now(),
      })),
    );
  }
  return Promise.all(submits);
}
