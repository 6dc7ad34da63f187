import type { FilingError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { FILING_READ_COLUMNS, filingsFromRows, writeFiling, type FilingRow } from "../state/filing-record.ts";
import { beginChange, moveFiling } from "../state/transitions.ts";

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
 * filing.errored event (outbox, same statement) makes billing release the hold. When nothing
 * had been acknowledged by an authority, the Idempotency-Key is released so that a retry with it
 * submits afresh.
 *
 * One statement reads the batch (with parts); each filing is then ended by one statement that
 * applies only if it is still at the version read. Several replicas may sweep at once: a filing
 * one of them ended, or that a request resuming it claimed meanwhile (a claim bumps the version),
 * is left alone by the others, so a resumed filing is never overtaken.
 */
export async function sweepPendingFilings(db: FilingDb, options: SweepOptions): Promise<SweepResult> {
  const rows = await db.$queryRaw<FilingRow[]>`
    WITH batch AS (
      SELECT id FROM filings
      WHERE status = 'pending' AND created_at < now() - ${options.olderThanSeconds}::int * interval '1 second'
        AND (claim_expires_at IS NULL OR claim_expires_at < now())
      ORDER BY created_at LIMIT ${options.batchSize}::int
    )
    SELECT ${FILING_READ_COLUMNS}
    FROM batch JOIN filings f ON f.id = batch.id LEFT JOIN filing_parts p ON p.filing_id = f.id
    ORDER BY f.created_at, f.id, p.part_number`;
  const result: SweepResult = { unsent: [], partlySent: [] };
  for (const filing of filingsFromRows(rows)) {
    const acknowledged = filing.parts.some((p) => p.taxCorrelationId !== null) || (filing.registryStatus !== null && filing.registryStatus !== "pending");
    const change = beginChange(filing);
    moveFiling(
      change,
      "error",
      { text: `sweeper: pending for more than ${options.olderThanSeconds} s with no submit working on it`, requestId: filing.requestId },
      SWEPT_ERROR,
    );
    if (!acknowledged) change.after.idempotencyKey = null;
    if (await writeFiling(db, change)) (acknowledged ? result.partlySent : result.unsent).push(filing.id);
  }
  return result;
}
