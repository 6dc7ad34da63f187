import { waitFor } from "@dormant/testing";

/**
 * Waits until an outcome matching `matches` has arrived in `outcomes` (the list a harness fills
 * from `filing.outcomes`), polling it every 25 ms: the test's side of poll-until-final.
 */
export function waitForFinalOutcome<O>(
  outcomes: readonly O[],
  matches: (outcome: O) => boolean,
  options: { timeoutMs: number; what: string },
): Promise<O> {
  return waitFor(() => outcomes.find(matches), { timeoutMs: options.timeoutMs, intervalMs: 25, what: options.what });
}
