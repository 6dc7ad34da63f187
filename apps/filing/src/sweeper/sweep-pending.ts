import type { FilingError } from "@dormant/contracts";
import type { Logger } from "@dormant/service-kit";
import type { FilingDb } from "../db/client.ts";
import { recordRegistrySubmitted, recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { submissionMayMove } from "../state/filing-state.ts";
import { FILING_READ_COLUMNS } from "../state/filing-columns.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { filingsFromRows, type FilingRow } from "../state/filing-rows.ts";
import { writeFiling } from "../state/write-filing.ts";
import { beginChange, everySubmissionAcknowledged, moveFiling, partOf, recordHistory, settleFiling } from "../state/transitions.ts";
import type { SubmissionResolution, SubmissionResolver } from "./resolve-submissions.ts";

export interface SweepOptions {
  /** A pending filing at least this old, with no live submit claim, is looked at. */
  olderThanSeconds: number;
  batchSize: number;
  /** Filings of a batch looked at at once (each may wait on a submitter asking its authority). */
  concurrency?: number;
  /**
   * A filing with a submission at an authority and another that never left (a split CT600 whose
   * part 2 was never sent) waits this long from its creation for the client's retry, which alone
   * can send the missing part (credentials are not stored); then the missing part ends `error`.
   */
  partlySentGiveUpSeconds: number;
}

export interface SweepDeps {
  db: FilingDb;
  resolver: SubmissionResolver;
  logger: Logger;
}

export interface SweepResult {
  /** Filings every submission of which turned out acknowledged (by the authority itself): now `submitted`, polled. */
  acknowledged: string[];
  /** Ended `error`: none of their submissions ever reached an authority (their Idempotency-Key is released). */
  unsent: string[];
  /** Filings with a submission at an authority whose other part never left, past `partlySentGiveUpSeconds`: that part ended `error`, the rest goes on. */
  partlySent: string[];
  /** Filings with a submission at an authority whose other part never left, still waiting for the client's retry to send it. */
  awaitingRetry: string[];
  /** Left pending: a submission's fate cannot be settled yet (asked again after the time the submitter gave). */
  inDoubt: string[];
}

/** How often a filing waiting for its client's retry (a part never sent) is looked at again. */
const AWAIT_RETRY_RECHECK_SECONDS = 600;

const NEVER_SENT: FilingError = {
  code: "INTERNAL_ERROR",
  message:
    "The submission was interrupted before it reached the authority and was not retried; the filing was not completed and nothing was charged.",
};

/**
 * The pending filings the sweep may look at: nobody has worked on them for `olderThanSeconds`
 * (created that long ago, and the last request's claim ended, released or lapsed, that long ago:
 * a client still retrying keeps its filing), not waiting to be asked again.
 */
function sweepableRows(db: FilingDb, olderThanSeconds: number, limit: number, filingId?: string): Promise<FilingRow[]> {
  return db.$queryRaw<FilingRow[]>`
    WITH batch AS (
      SELECT id FROM filings
      WHERE status = 'pending' AND created_at < now() - ${olderThanSeconds}::int * interval '1 second'
        AND (claim_expires_at IS NULL OR claim_expires_at < now() - ${olderThanSeconds}::int * interval '1 second')
        AND (resolve_after IS NULL OR resolve_after < now())
        AND (${filingId ?? null}::text IS NULL OR id = ${filingId ?? null}::text)
      ORDER BY created_at LIMIT ${limit}::int
    )
    SELECT ${FILING_READ_COLUMNS}
    FROM batch JOIN filings f ON f.id = batch.id LEFT JOIN filing_parts p ON p.filing_id = f.id
    ORDER BY f.created_at, f.id, p.part_number`;
}

/** The filing's submissions with no acknowledgement: CT600 part numbers, or the accounts (0). */
function unacknowledged(filing: FilingRecord): number[] {
  if (filing.filingType === "ct600")
    return filing.parts.filter((part) => part.taxCorrelationId === null && part.taxStatus === "pending").map((part) => part.partNumber);
  return everySubmissionAcknowledged(filing) ? [] : [0];
}

/**
 * Settles filings left `pending`: their submit request was interrupted (a crash, an answer lost,
 * the client never retried) and nobody has worked on them for `olderThanSeconds`. Credentials
 * are never stored here, so nothing is resubmitted; instead the submitter that owns each
 * submission without an acknowledgement is asked what became of it (`tax.resolve_part`,
 * `registry.resolve_accounts`: from its shared records and, when those say it is in doubt, from
 * the authority itself):
 * - acknowledged: recorded as the submit would have (the filing becomes `submitted` and is
 *   polled to its outcome);
 * - not_submitted (certainly never at the authority): when no submission of the filing reached
 *   one, the filing ends `error` (filing.errored makes billing release the hold) and its
 *   Idempotency-Key is released so that a retry with it submits afresh. When another part is at
 *   the authority (a split CT600 whose part 2 never left), only the client's retry with the same
 *   key can send the missing part (it brings the credentials; filing again would send part 1 a
 *   second time), so the filing stays pending for it until `partlySentGiveUpSeconds` after its
 *   creation; then only the missing part ends `error` and the filing goes on with the part the
 *   authority has. A submission an authority acknowledged is never ended by the sweeper;
 * - in_doubt (cannot be settled yet, or the submitter cannot be asked): the filing stays pending
 *   and is asked about again after the time given.
 *
 * Writes are at the version read (a filing that another replica settled, or that a request
 * resuming it claimed meanwhile, is left alone); acknowledgements are idempotent.
 */
export async function sweepPendingFilings(deps: SweepDeps, options: SweepOptions): Promise<SweepResult> {
  const rows = await sweepableRows(deps.db, options.olderThanSeconds, options.batchSize);
  const result: SweepResult = { acknowledged: [], unsent: [], partlySent: [], awaitingRetry: [], inDoubt: [] };
  const queue = filingsFromRows(rows);
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, queue.length)) }, async () => {
    for (let filing = queue.shift(); filing; filing = queue.shift()) {
      try {
        await sweepOne(deps, filing, options, result);
      } catch (error) {
        deps.logger.error(
          { err: error, filing_id: filing.id },
          "sweeper: could not settle a pending filing; it is looked at again next time",
        );
      }
    }
  });
  await Promise.all(workers);
  return result;
}

async function sweepOne(deps: SweepDeps, filing: FilingRecord, options: SweepOptions, result: SweepResult): Promise<void> {
  const { db, resolver, logger } = deps;
  const asked = unacknowledged(filing);
  const answers = await Promise.all(
    asked.map(async (partNumber) => ({
      partNumber,
      answer: (partNumber === 0 ? await resolver.accounts(filing) : await resolver.taxPart(filing, partNumber)) as SubmissionResolution,
    })),
  );
  for (const { partNumber, answer } of answers) {
    if (answer.state !== "acknowledged") continue;
    if (partNumber === 0 && "submission_number" in answer.response)
      await recordRegistrySubmitted(db, filing.id, answer.response, filing.requestId);
    else if ("correlation_id" in answer.response)
      await recordTaxPartSubmitted(db, filing.id, partNumber, answer.response, filing.requestId);
    logger.warn(
      { filing_id: filing.id, part_number: partNumber || undefined },
      "sweeper: a submission in doubt is at the authority; recorded as acknowledged",
    );
  }
  const waiting = answers.flatMap(({ answer }) => (answer.state === "in_doubt" ? [answer] : []));
  if (waiting.length > 0) {
    const seconds = Math.max(...waiting.map((answer) => answer.retry_after_seconds));
    await db.$executeRaw`UPDATE filings SET resolve_after = now() + ${seconds}::int * interval '1 second' WHERE id = ${filing.id} AND status = 'pending'`;
    logger.info(
      { filing_id: filing.id, reasons: waiting.map((answer) => answer.reason), retry_after_seconds: seconds },
      "sweeper: a submission is still in doubt; the filing stays pending",
    );
    result.inDoubt.push(filing.id);
    return;
  }
  const neverSent = answers.filter(({ answer }) => answer.state === "not_submitted").map(({ partNumber }) => partNumber);
  if (neverSent.length === 0) {
    if (answers.length > 0) result.acknowledged.push(filing.id);
    return;
  }
  // Read it again (acknowledgements may have been written above), still sweepable, and end what never left.
  const [current] = filingsFromRows(await sweepableRows(db, options.olderThanSeconds, 1, filing.id));
  if (!current) return;
  const change = beginChange(current);
  const cause = {
    text: `sweeper: pending for more than ${options.olderThanSeconds} s, and the submitter says it never reached the authority`,
    requestId: current.requestId,
  };
  const anyAcknowledged =
    current.filingType === "ct600" ? current.parts.some((part) => part.taxCorrelationId !== null) : everySubmissionAcknowledged(current);
  const waitLeftSeconds = Math.ceil((current.createdAt.getTime() + options.partlySentGiveUpSeconds * 1000 - Date.now()) / 1000);
  if (anyAcknowledged && waitLeftSeconds > 0) {
    const seconds = Math.min(waitLeftSeconds, AWAIT_RETRY_RECHECK_SECONDS);
    await db.$executeRaw`UPDATE filings SET resolve_after = now() + ${seconds}::int * interval '1 second' WHERE id = ${current.id} AND status = 'pending'`;
    logger.warn(
      { filing_id: current.id, never_sent_parts: neverSent, give_up_in_seconds: waitLeftSeconds },
      "sweeper: a part of this filing is at the authority and another never left; only the client's retry with the same Idempotency-Key can send it; the filing stays pending",
    );
    result.awaitingRetry.push(current.id);
    return;
  }
  if (!anyAcknowledged) {
    moveFiling(change, "error", cause, NEVER_SENT);
    change.after.idempotencyKey = null;
  } else {
    for (const partNumber of neverSent) {
      const part = partOf(change, partNumber);
      if (!part || !submissionMayMove(part.taxStatus, "error")) continue;
      recordHistory(change, {
        partNumber,
        field: "tax_status",
        from: part.taxStatus,
        to: "error",
        cause: `${cause.text} (${NEVER_SENT.code})`,
      });
      Object.assign(part, { taxStatus: "error", errorCode: NEVER_SENT.code, errorMessage: NEVER_SENT.message, updatedAt: change.now });
    }
    settleFiling(change, cause);
  }
  if (await writeFiling(db, change)) (anyAcknowledged ? result.partlySent : result.unsent).push(current.id);
}
