import type { DocumentDeps } from "./document-deps.ts";
import { announceDocumentsReady } from "./documents-ready.ts";
import { fetchMissingRecords } from "./fetch-missing-records.ts";
import { readForDocuments } from "./read-for-documents.ts";
import { renderMissingDocuments, storeDocuments } from "./render-missing.ts";

export interface CompleteDocumentsOptions {
  /** An accepted filing without `filing.documents_ready` at least this long after it was accepted is looked at. */
  olderThanSeconds: number;
  /** How far back (accepted within) it looks: the partial index on finalized_at serves the range. */
  withinSeconds: number;
  batchSize: number;
}

/** What one pass did: filings whose documents are now complete (documents_ready written), and those still waiting. */
export interface CompleteDocumentsResult {
  completed: string[];
  waiting: string[];
}

/** A message id no `filing.accepted` ever has: the sweep's reads never find it handled. */
const SWEEP_READ = "documents-sweep";

/**
 * The documents sweep, run with the pending sweeper: accepted filings that still lack their
 * documents (no `documents_ready_at`) some time after their acceptance, whatever the reason (a
 * part's record of its submit missing, its filing.accepted parked in filing.documents.dlq), are
 * completed here: the record asked of the tax submitter (fetchMissingRecords), the missing PDFs
 * rendered and stored, and `filing.documents_ready` written once (documents-ready.ts). Idempotent:
 * a filing completed meanwhile by the consumer or a read is done (a document is stored once, the
 * event written once), and a replay of its parked message then finds it complete.
 */
export async function completeDocuments(deps: DocumentDeps, options: CompleteDocumentsOptions): Promise<CompleteDocumentsResult> {
  const rows = await deps.db.$queryRaw<Array<{ id: string }>>`
    /* documents */
    SELECT id FROM filings
    WHERE finalized_at IS NOT NULL
      AND finalized_at > now() - ${options.withinSeconds}::int * interval '1 second'
      AND finalized_at < now() - ${options.olderThanSeconds}::int * interval '1 second'
      AND status = 'accepted' AND documents_ready_at IS NULL
    ORDER BY finalized_at LIMIT ${options.batchSize}::int`;
  const result: CompleteDocumentsResult = { completed: [], waiting: [] };
  for (const { id } of rows) {
    try {
      (await completeOne(deps, id)) ? result.completed.push(id) : result.waiting.push(id);
    } catch (error) {
      deps.logger.error(
        { err: error, filing_id: id },
        "documents sweep: could not complete a filing's documents; looked at again next time",
      );
      result.waiting.push(id);
    }
  }
  return result;
}

/** Completes one filing's documents; true when its documents are all there now. */
export async function completeOne(deps: DocumentDeps, filingId: string): Promise<boolean> {
  let { filing, stored } = await readForDocuments(deps.db, SWEEP_READ, filingId);
  if (filing?.status !== "accepted") return false;
  if (filing.parts.some((part) => part.irmark === null) && (await fetchMissingRecords(deps, filing)).length > 0) {
    ({ filing, stored } = await readForDocuments(deps.db, SWEEP_READ, filingId));
    if (filing?.status !== "accepted") return false;
  }
  const { documents, waiting } = await renderMissingDocuments(deps.db, deps.renderer, filing, deps.now(), stored);
  await storeDocuments(deps.db, filingId, documents);
  for (const document of documents) deps.onRendered?.(document.type, "event");
  if (waiting.length > 0) {
    deps.logger.warn({ filing_id: filingId, waiting }, "documents sweep: an accepted filing's documents cannot be rendered yet");
    return false;
  }
  await announceDocumentsReady(deps.db, filingId, deps.now());
  return true;
}
