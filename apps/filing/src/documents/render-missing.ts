import { Prisma } from "../generated/prisma/client.ts";
import type { FilingDb } from "../db/client.ts";
import type { Tx } from "../state/transitions.ts";
import { accountsPdfJob } from "./accounts-pdf.ts";
import { ct600PartPdfJob, PartNotRecordedError, type RenderablePart } from "./ct600-pdf.ts";
import { pdfDocument, type RenderedDocument } from "./document-files.ts";
import type { PdfJob } from "./pdf-jobs.ts";
import type { PdfRenderer } from "./pdf-renderer.ts";

/**
 * What the PDFs of an accepted filing are rendered from: a Prisma `Filing` with its parts (the
 * reads) and the documents consumer's one-statement read both are one.
 */
export interface RenderableFiling {
  id: string;
  filingType: "ct600" | "accounts";
  periodSplit: boolean;
  companyNumber: string;
  periodEnd: Date;
  /** The facts the accounts' iXBRL was rendered from (null for a CT600). */
  accountsInput: unknown;
  parts: RenderablePart[];
}

/** What rendering found to do for a filing. */
export interface RenderOutcome {
  /** The PDFs rendered now (not stored yet). */
  documents: RenderedDocument[];
  /** PDFs that cannot be rendered yet (a part whose submission record has not landed). */
  waiting: string[];
}

/** How a stored document is named in `stored` sets: `ct600_pdf:2`, `accounts_pdf:-`. */
export const storedKey = (type: string, partNumber: number | null) => `${type}:${partNumber ?? "-"}`;

/** The same key computed by PostgreSQL from a `documents` row aliased `d`. */
export const STORED_KEY_SQL = Prisma.sql`d.type::text || ':' || coalesce(d.part_number::text, '-')`;

/**
 * Renders the PDFs an accepted filing should have and does not have yet: a `ct600_pdf` per CT600
 * part, or the `accounts_pdf`. The inputs are built here, the PDFs rendered by `renderer` (a render
 * thread, side by side when there are several threads and parts). Nothing is written; the
 * documents kept at submit time (ct600_xml, ixbrl_accounts) are never rendered here. `stored`
 * (keys as `storedKey`) saves the read of what the filing has when the caller read it already.
 */
export async function renderMissingDocuments(
  db: FilingDb | Tx,
  renderer: PdfRenderer,
  filing: RenderableFiling,
  now: Date,
  stored?: ReadonlySet<string>,
): Promise<RenderOutcome> {
  const have =
    stored ??
    new Set(
      (await db.document.findMany({ where: { filingId: filing.id }, select: { type: true, partNumber: true } })).map((d) =>
        storedKey(d.type, d.partNumber),
      ),
    );
  const jobs: Array<{ job: PdfJob; partNumber: number | null }> = [];
  const waiting: string[] = [];
  if (filing.filingType === "ct600") {
    for (const part of [...filing.parts].sort((a, b) => a.partNumber - b.partNumber)) {
      if (have.has(storedKey("ct600_pdf", part.partNumber))) continue;
      try {
        jobs.push({ job: ct600PartPdfJob(filing, part, now), partNumber: part.partNumber });
      } catch (error) {
        if (!(error instanceof PartNotRecordedError)) throw error;
        waiting.push(error.message);
      }
    }
  } else if (!have.has(storedKey("accounts_pdf", null))) {
    const job = accountsPdfJob(filing, now);
    if (job) jobs.push({ job, partNumber: null });
  }
  const documents = await Promise.all(
    jobs.map(async ({ job, partNumber }) => pdfDocument(filing, job.type, partNumber, await renderer.render(job), now)),
  );
  return { documents, waiting };
}

/** What storing rendered documents did. */
export interface StoreResult {
  /** Documents written; one already there (rendered meanwhile elsewhere) is kept as it is. */
  stored: number;
  /** Whether the inbox row was written now (false: it was there already, or none was asked for). */
  recorded: boolean;
}

/**
 * Stores rendered documents and, with `inbox`, the row that marks a `filing.accepted` message
 * handled: one statement, so both are written or neither. A document already stored (the same
 * filing, type and part) is kept as it is.
 */
export async function storeDocuments(
  db: FilingDb | Tx,
  filingId: string,
  documents: RenderedDocument[],
  inbox?: { messageId: string },
): Promise<StoreResult> {
  if (documents.length === 0 && !inbox) return { stored: 0, recorded: false };
  const rows = documents.map(
    (d) =>
      Prisma.sql`(${filingId}, ${d.type}::document_type, ${d.partNumber}::int, ${d.mediaType}::text, ${d.fileName}::text, ${d.content}::bytea, ${d.content.length}::int, ${d.generatedAt}::timestamptz)`,
  );
  const insertDocuments =
    rows.length > 0
      ? Prisma.sql`INSERT INTO documents (filing_id, type, part_number, media_type, file_name, content, size_bytes, generated_at)
          VALUES ${Prisma.join(rows)} ON CONFLICT DO NOTHING RETURNING 1`
      : Prisma.sql`SELECT 1 WHERE false`;
  const insertInbox = inbox
    ? Prisma.sql`INSERT INTO inbox (message_id, type, filing_id) VALUES (${inbox.messageId}, 'filing.accepted', ${filingId}) ON CONFLICT (message_id) DO NOTHING RETURNING 1`
    : Prisma.sql`SELECT 1 WHERE false`;
  const [result] = await db.$queryRaw<Array<{ stored: number; recorded: number }>>`
    /* documents */
    WITH stored AS (${insertDocuments}), recorded AS (${insertInbox})
    SELECT (SELECT count(*) FROM stored)::int AS stored, (SELECT count(*) FROM recorded)::int AS recorded`;
  return { stored: result?.stored ?? 0, recorded: (result?.recorded ?? 0) > 0 };
}
