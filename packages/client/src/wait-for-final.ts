import type { FilingView } from "./types.ts";

export const FINAL_STATUSES: ReadonlySet<string> = new Set(["accepted", "rejected", "error"]);

export interface FilingProgress {
  filingId: string;
  /** The filing's status now, and at the previous change (undefined the first time). */
  status: FilingView["status"];
  previousStatus: FilingView["status"] | undefined;
  filing: FilingView;
  elapsedMs: number;
}

export interface WaitForFinalOptions {
  /** Give up (FilingWaitTimeoutError) after this long. Default 3 600 000 ms (one hour). */
  timeoutMs?: number;
  /** Called with the first status seen and with every change (of the filing or of a part's status). */
  onProgress?: (progress: FilingProgress) => void;
  /**
   * The wait between polls, fixed or by time elapsed. Default: the API's advice, every 30 s for
   * the first 5 minutes, then every 5 minutes.
   */
  pollIntervalMs?: number | ((elapsedMs: number) => number);
  /**
   * Stops the wait when aborted (the caller went away): no poll is made after it, a wait between
   * polls ends at once, and waitForFinal rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/** The API's advice (GET /filings/{filing_id}): every 30 s for the first 5 minutes, then every 5 minutes. */
export function recommendedPollInterval(elapsedMs: number): number {
  return elapsedMs < 5 * 60_000 ? 30_000 : 5 * 60_000;
}

/** waitForFinal ran out of time; `lastSeen` is the filing as last polled. */
export class FilingWaitTimeoutError extends Error {
  override readonly name = "FilingWaitTimeoutError";
  constructor(
    readonly filingId: string,
    readonly timeoutMs: number,
    readonly lastSeen: FilingView | undefined,
  ) {
    super(`filing ${filingId} was not final after ${timeoutMs} ms (last status: ${lastSeen?.status ?? "none"})`);
  }
}

/** What changes count as progress: the filing's status and each part's. */
function progressSignature(filing: FilingView): string {
  const parts = "parts" in filing && Array.isArray(filing.parts) ? filing.parts.map((part) => part.tax_status).join(",") : "";
  return `${filing.status}|${parts}`;
}

/** Waits `ms`, or less when `signal` aborts meanwhile (it then rejects with the signal's reason). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

/**
 * Polls `get(filingId)` (whose answers 429/503 are already retried after their Retry-After) until
 * the filing is accepted, rejected or error, and answers it. The first poll is immediate (a
 * sandbox filing is final at once); no wait runs past the deadline, nor past `signal`'s abort.
 */
export async function waitForFinal(
  get: (filingId: string) => Promise<FilingView>,
  filingId: string,
  { timeoutMs = 3_600_000, onProgress, pollIntervalMs = recommendedPollInterval, signal }: WaitForFinalOptions = {},
): Promise<FilingView> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastSeen: FilingView | undefined;
  let lastSignature: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const filing = await get(filingId);
    const elapsedMs = Date.now() - started;
    const signature = progressSignature(filing);
    if (signature !== lastSignature) {
      onProgress?.({ filingId, status: filing.status, previousStatus: lastSeen?.status, filing, elapsedMs });
      lastSignature = signature;
    }
    lastSeen = filing;
    if (FINAL_STATUSES.has(filing.status)) return filing;
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new FilingWaitTimeoutError(filingId, timeoutMs, lastSeen);
    const interval = typeof pollIntervalMs === "function" ? pollIntervalMs(elapsedMs) : pollIntervalMs;
    await pause(Math.min(interval, remaining), signal);
  }
}
