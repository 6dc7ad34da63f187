import type { FilingError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { enqueueEvent } from "../outbox/enqueue.ts";
import { lockFiling } from "../state/transitions.ts";

export interface AbandonReason {
  error: FilingError;
  requestId: string;
  /**
   * Publish filing.errored so that billing releases a fee hold the failed call may have left
   * (false when billing certainly holds nothing, e.g. it answered INSUFFICIENT_BALANCE).
   */
  announce: boolean;
}

/**
 * Removes a pending filing none of whose submissions reached an authority, so that the failed
 * submit leaves nothing behind and a retry with the same Idempotency-Key starts afresh. Refuses
 * (false) when the filing is past pending or a submission was acknowledged: that filing exists
 * at an authority and must stay. The filing.errored event goes out through the outbox, in the
 * same transaction as the delete.
 */
export async function abandonFiling(db: FilingDb, filingId: string, reason: AbandonReason): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const filing = await lockFiling(tx, filingId);
    if (!filing || filing.status !== "pending") return false;
    if (filing.parts.some((p) => p.taxStatus !== "pending" || p.taxCorrelationId !== null)) return false;
    if (filing.registryStatus !== null && filing.registryStatus !== "pending") return false;
    if (reason.announce) {
      await enqueueEvent(
        tx,
        "filing.errored",
        {
          filing_id: filing.id,
          account_id: filing.accountId,
          filing_type: filing.filingType,
          company_number: filing.companyNumber,
          occurred_at: new Date().toISOString(),
          error: reason.error,
        },
        reason.requestId,
      );
    }
    await tx.filing.delete({ where: { id: filing.id } });
    return true;
  });
}
