import type { FilingError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { lockFiling, moveFiling } from "../state/transitions.ts";

export interface SweepOptions {
  /** A pending filing at least this old, with no live submit claim, is ended. */
  olderThanSeconds: number;
  batchSize: number;
}

export interface SweepResult {
  /** Ended filings none of whose submissions had been acknowledged (their Idempotency-Key is released). */
  unsent: string[];
  /** Ended filings with a submission acknowledged by an authority (their key keeps answering). */
  partlySent: string[];
}

const SWEPT_ERROR: FilingError = {
  code: "INTERNAL_ERROR",
  message: "The submission was interrupted and not retried in time; the filing was not completed and nothing was charged.",
};

/**
 * Ends filings left `pending`: their submit request was interrupted (crash, time-out, the
 * client never retried) and nobody has worked on them for `olderThanSeconds`. Credentials are
 * never stored, so nothing can be resubmitted: the filing becomes `error` INTERNAL_ERROR and its
 * filing.errored event (outbox, same transaction) makes billing release the hold. When nothing
 * had been acknowledged by an authority, the Idempotency-Key is released so that a retry with it
 * submits afresh. Several replicas may sweep at once: rows are taken FOR UPDATE SKIP LOCKED, and
 * a request resuming the filing (which claims it first) is never overtaken.
 */
export async function sweepPendingFilings(db: FilingDb, options: SweepOptions): Promise<SweepResult> {
  return db.$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM filings
        WHERE status = 'pending' AND created_at < now() - ${options.olderThanSeconds}::int * interval '1 second'
          AND (claim_expires_at IS NULL OR claim_expires_at < now())
        ORDER BY created_at LIMIT ${options.batchSize} FOR UPDATE SKIP LOCKED`;
      const result: SweepResult = { unsent: [], partlySent: [] };
      for (const { id } of rows) {
        const filing = await lockFiling(tx, id);
        if (!filing) continue;
        const acknowledged = filing.parts.some((p) => p.taxCorrelationId !== null) || (filing.registryStatus !== null && filing.registryStatus !== "pending");
        await moveFiling(
          tx,
          filing,
          "error",
          { text: `sweeper: pending for more than ${options.olderThanSeconds} s with no submit working on it`, requestId: filing.requestId },
          SWEPT_ERROR,
        );
        if (!acknowledged) await tx.filing.update({ where: { id }, data: { idempotencyKey: null } });
        (acknowledged ? result.partlySent : result.unsent).push(id);
      }
      return result;
    },
    { timeout: 30_000 },
  );
}
