import { AppError, type SubmitRegistryAccountsResponse, type SubmitTaxPartResponse } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { submissionMayMove } from "../state/filing-state.ts";
import { fillRegistrySubmittedAt, fillTaxPartSubmission, pushCt600Xml, stampSubmittedAt } from "../state/submission-record.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { readFiling } from "../state/filing-rows.ts";
import { FilingBusyError, MAX_WRITE_ATTEMPTS, writeFiling } from "../state/write-filing.ts";
import { beginChange, everySubmissionAcknowledged, partOf, recordHistory, settleFiling, type Change } from "../state/transitions.ts";

/** What recording an acknowledgement left: the filing as written, and whether a filing event went to the outbox. */
export interface Recorded {
  filing: FilingRecord;
  eventWritten: boolean;
}

export interface RecordOptions {
  /**
   * The claim of the submit request recording this: dropped in the same statement once every
   * submission is acknowledged (the request has nothing left to send), if it is still the
   * filing's claim.
   */
  releaseClaim?: string;
}

function releaseIfDone(change: Change, options: RecordOptions): void {
  if (options.releaseClaim !== undefined && change.after.claimToken === options.releaseClaim && everySubmissionAcknowledged(change.after)) {
    change.after.claimToken = null;
  }
}

/**
 * Computes an acknowledgement's change from the filing as held (or as read) and writes it as one
 * statement; when the filing moved meanwhile (an outcome overtook the record, another request's
 * claim), reads it again and computes the change again.
 */
async function record(db: FilingDb, filing: FilingRecord | string, compute: (change: Change) => void): Promise<Recorded> {
  let current = typeof filing === "string" ? await readFiling(db, filing) : filing;
  const filingId = typeof filing === "string" ? filing : filing.id;
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    if (!current) throw new AppError("INTERNAL_ERROR", "The filing disappeared while it was being submitted");
    const change = beginChange(current);
    compute(change);
    const written = await writeFiling(db, change);
    if (written) return { filing: written, eventWritten: change.events.length > 0 };
    current = await readFiling(db, filingId);
  }
  throw new FilingBusyError(filingId);
}

/**
 * A CT600 part acknowledged by the tax authority: its correlation id and IRmark, tax_status
 * submitted (unless an outcome already overtook it), the GovTalk message as sent (password
 * masked) as its ct600_xml document, the filing settled (pending -> submitted once every part is
 * acknowledged, submitted_at the last acknowledgement's) and, with `releaseClaim`, the request's
 * claim dropped once nothing is left to send: one statement. Safe to repeat: nothing already
 * recorded is overwritten. `filing` is the record the caller holds (or its id, to read it first).
 */
export async function recordTaxPartSubmitted(
  db: FilingDb,
  filing: FilingRecord | string,
  partNumber: number,
  response: SubmitTaxPartResponse,
  requestId: string,
  options: RecordOptions = {},
): Promise<Recorded> {
  const cause = `submit acknowledged by the tax authority (correlation id ${response.correlation_id})`;
  return record(db, filing, (change) => {
    const part = partOf(change, partNumber);
    if (!part) throw new AppError("INTERNAL_ERROR", `The filing has no part ${partNumber}`);
    part.taxCorrelationId ??= response.correlation_id;
    // The ct600_xml goes with every acknowledgement (stored once): a part whose IRmark an
    // outcome brought before the document was stored still gets it.
    if (!fillTaxPartSubmission(change, partNumber, response)) pushCt600Xml(change, partNumber, response);
    if (submissionMayMove(part.taxStatus, "submitted")) {
      recordHistory(change, { partNumber, field: "tax_status", from: part.taxStatus, to: "submitted", cause });
      part.taxStatus = "submitted";
      part.updatedAt = change.now;
      change.after.updatedAt = change.now;
    }
    stampSubmittedAt(change);
    settleFiling(change, { text: cause, requestId });
    releaseIfDone(change, options);
  });
}

/**
 * The accounts acknowledged by the registry: registry_status submitted, submitted_at, the filing
 * settled and (with `releaseClaim`) the request's claim dropped, in one statement.
 */
export async function recordRegistrySubmitted(
  db: FilingDb,
  filing: FilingRecord | string,
  response: SubmitRegistryAccountsResponse,
  requestId: string,
  options: RecordOptions = {},
): Promise<Recorded> {
  const cause = `submission ${response.submission_number} acknowledged by the registry`;
  return record(db, filing, (change) => {
    const accounts = change.after;
    const from = accounts.registryStatus ?? "pending";
    if (submissionMayMove(from, "submitted")) {
      recordHistory(change, { field: "registry_status", from, to: "submitted", cause });
      accounts.registryStatus = "submitted";
      accounts.updatedAt = change.now;
    }
    fillRegistrySubmittedAt(change, response.submitted_at);
    settleFiling(change, { text: cause, requestId });
    releaseIfDone(change, options);
  });
}
