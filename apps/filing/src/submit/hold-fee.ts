import { BILLING_RPC_QUEUE, FILING_FEE_PENCE } from "@dormant/contracts";
import type { SubmitDeps } from "./submit-deps.ts";

/** How long the best-effort release after a failed submit may delay the answer. */
const RELEASE_TIMEOUT_MS = 2_000;

/** Reserves the filing fee (billing.hold is idempotent per filing_id, so a resumed submit may ask again). */
export async function holdFee(deps: SubmitDeps, filingId: string, accountId: string): Promise<void> {
  await deps.bus.rpcCall(BILLING_RPC_QUEUE, "billing.hold", { account_id: accountId, filing_id: filingId, amount_pence: FILING_FEE_PENCE });
}

/**
 * Releases the hold of a submit that failed before reaching an authority, at once, so that the
 * caller's immediate retry finds the balance free. Best effort: the filing.errored event written
 * with the removal releases it anyway once billing consumes it.
 */
export async function releaseFeeQuietly(deps: SubmitDeps, filingId: string, reason: string): Promise<void> {
  try {
    await deps.bus.rpcCall(BILLING_RPC_QUEUE, "billing.release", { filing_id: filingId, reason }, { timeoutMs: RELEASE_TIMEOUT_MS });
  } catch (error) {
    deps.logger.warn({ err: error, filing_id: filingId }, "could not release the fee hold now; the filing.errored event will");
  }
}
