import type { FilingDb } from "../db/client.ts";
import type { Filing, FilingPart } from "../generated/prisma/client.ts";
import type { Tx } from "../state/transitions.ts";
import { accountsPdfJob } from "./accounts-pdf.ts";
import { ct600PartPdfJob, PartNotRecordedError } from "./ct600-pdf.ts";
import { pdfDocument, type RenderedDocument } from "./document-files.ts";
import type { PdfJob } from "./pdf-jobs.ts";
import type { PdfRenderer } from "./pdf-renderer.ts";

export type AcceptedFiling = Filing & { parts: FilingPart[] };

/** What rendering found to do for a filing. */
export interface RenderOutcome {
  /** The PDFs rendered now (not stored yet). */
  documents: RenderedDocument[];
  /** PDFs that cannot be rendered yet (a part whose submission record has not landed). */
  waiting: string[];
}

const key = (type: string, partNumber: number | null) => `${type}:${partNumber ?? "-"}`;

/**
 * Renders the PDFs an accepted filing should have and does not have yet: a `ct600_pdf` per CT600
 * part, or the `accounts_pdf`. The inputs are built here, the PDFs rendered by `renderer` (a render
 * thread, side by side when there are several threads and parts). Nothing is written; the
 * documents kept at submit time (ct600_xml, ixbrl_accounts) are never rendered here.
 */
export async function renderMissingDocuments(db: FilingDb | Tx, renderer: PdfRenderer, filing: AcceptedFiling, now: Date): Promise<RenderOutcome> {
  const stored = await db.document.findMany({ where: { filingId: filing.id }, select: { type: true, partNumber: true } });
  const have = new Set(stored.map((d) => key(d.type, d.partNumber)));
  const jobs: Array<{ job: PdfJob; partNumber: number | null }> = [];
  const waiting: string[] = [];
  if (filing.filingType === "ct600") {
    for (const part of [...filing.parts].sort((a, b) => a.partNumber - b.partNumber)) {
      if (have.has(key("ct600_pdf", part.partNumber))) continue;
      try {
        jobs.push({ job: ct600PartPdfJob(filing, part, now), partNumber: part.partNumber });
      } catch (error) {
        if (!(error instanceof PartNotRecordedError)) throw error;
        waiting.push(error.message);
      }
    }
  } else if (!have.has(key("accounts_pdf", null))) {
    const job = accountsPdfJob(filing, now);
    if (job) jobs.push({ job, partNumber: null });
  }
  const documents = await Promise.all(jobs.map(async ({ job, partNumber }) => pdfDocument(filing, job.type, partNumber, await renderer.render(job), now)));
  return { documents, waiting };
}

/** Stores rendered documents; one already there (rendered meanwhile elsewhere) is kept as it is. */
export async function storeDocuments(db: FilingDb | Tx, filingId: string, documents: RenderedDocument[]): Promise<number> {
  if (documents.length === 0) return 0;
  const { count } = await db.document.createMany({
    data: documents.map((d) => ({ filingId, ...d, sizeBytes: d.content.length })),
    skipDuplicates: true,
  });
  return count;
}
