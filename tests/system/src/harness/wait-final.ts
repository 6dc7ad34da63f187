import type { Filing } from "@dormant/contracts";
import type { ApiClient } from "./api-client.ts";

export const FINAL_STATUSES = ["accepted", "rejected", "error"] as const;

export function isFinal(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

/**
 * Polls `GET /filings/{id}` through the gateway, as a client does, until the filing is
 * accepted, rejected or error; answers the final filing. Read failures (e.g. a service being
 * restarted) are retried until the deadline.
 */
export async function waitForFinal(client: ApiClient, filingId: string, { timeoutMs = 60_000, intervalMs = 500 } = {}): Promise<Filing> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    try {
      const answer = await client.getFiling(filingId);
      if (answer.status === 200 && answer.data && isFinal(answer.data.status)) return answer.data;
      last = answer.data ? `status ${answer.data.status}` : `HTTP ${answer.status} ${answer.error?.code ?? ""}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`filing ${filingId} not final within ${timeoutMs} ms (last: ${last})`);
}

/**
 * Waits until every one of `filingIds` is final, looking at the whole list (`GET /filings`,
 * one request per round instead of one per filing), then reads each filing once with
 * `GET /filings/{id}`. Answers the final filings by id.
 */
export async function waitForAllFinal(
  client: ApiClient,
  filingIds: readonly string[],
  { timeoutMs = 120_000, intervalMs = 1_000 } = {},
): Promise<Map<string, Filing>> {
  const deadline = Date.now() + timeoutMs;
  const wanted = new Set(filingIds);
  let open: string[] = [...wanted];
  while (open.length > 0) {
    try {
      const listed = await client.allFilings();
      const final = new Set(listed.filter((filing) => isFinal(filing.status)).map((filing) => filing.filing_id));
      open = [...wanted].filter((id) => !final.has(id));
    } catch {
      // a service restarting: look again
    }
    if (open.length === 0) break;
    if (Date.now() >= deadline)
      throw new Error(`${open.length} of ${wanted.size} filings not final within ${timeoutMs} ms: ${open.slice(0, 10).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const filings = new Map<string, Filing>();
  for (const id of wanted) filings.set(id, await waitForFinal(client, id, { timeoutMs: Math.max(5_000, deadline - Date.now()) }));
  return filings;
}
