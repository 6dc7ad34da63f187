import { DOCUMENT_TYPES_BY_FILING_TYPE, type DocumentType } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { outboxEvent } from "../outbox/enqueue.ts";
import { filingView } from "../reads/filing-view.ts";
import { OUTBOX_COLUMNS, outboxValues } from "../state/change-ctes.ts";
import { clientReferenceOf } from "../state/client-reference.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { readFiling } from "../state/filing-rows.ts";

/** The PDFs an accepted filing has once complete: one ct600_pdf per return, or the accounts_pdf. */
function expectedPdfs(filing: FilingRecord): number {
  return filing.filingType === "ct600" ? filing.parts.length : 1;
}

/** Every document the filing offers once its PDFs are stored (each CT600 return has its own). */
function documentsOf(filing: FilingRecord): Array<{ type: DocumentType; part_number?: number }> {
  const types = DOCUMENT_TYPES_BY_FILING_TYPE[filing.filingType];
  if (filing.filingType !== "ct600") return types.map((type) => ({ type }));
  return filing.parts.flatMap((part) => types.map((type) => ({ type, part_number: part.partNumber })));
}

/**
 * Writes `filing.documents_ready` once all the PDFs of an accepted filing are stored, whoever
 * stored the last of them: one statement marks the filing (`documents_ready_at`, only while
 * unset, only when the PDFs are all there, bumping its version as every UPDATE of filings does)
 * and writes the event with it, so it is written once however many callers get here. True when
 * this call wrote it (the outbox relay then publishes it).
 */
export async function announceDocumentsReady(db: FilingDb, filingId: string, now: Date): Promise<boolean> {
  const filing = await readFiling(db, filingId, { label: "documents" });
  if (filing?.status !== "accepted") return false;
  const event = outboxEvent(
    "filing.documents_ready",
    {
      filing_id: filing.id,
      account_id: filing.accountId,
      filing_type: filing.filingType,
      company_number: filing.companyNumber,
      ...clientReferenceOf(filing),
      occurred_at: now.toISOString(),
      filing: filingView(filing),
      documents: documentsOf(filing),
    },
    filing.requestId,
  );
  const rows = await db.$queryRaw<Array<{ written: number }>>`
    /* documents */
    WITH ready AS (
      UPDATE filings SET documents_ready_at = ${now}::timestamptz, version = version + 1
      WHERE id = ${filing.id} AND documents_ready_at IS NULL AND status = 'accepted'
        AND (SELECT count(*) FROM documents d WHERE d.filing_id = ${filing.id} AND d.type IN ('ct600_pdf', 'accounts_pdf')) >= ${expectedPdfs(filing)}::int
      RETURNING id),
    written AS (
      INSERT INTO outbox (${OUTBOX_COLUMNS})
      SELECT v.* FROM ready CROSS JOIN (VALUES ${outboxValues(event)}) AS v(${OUTBOX_COLUMNS})
      RETURNING 1)
    SELECT count(*)::int AS written FROM written`;
  return (rows[0]?.written ?? 0) > 0;
}
