import {
  AppError,
  DOCUMENT_TYPES_BY_FILING_TYPE,
  type DocumentChunk,
  type DocumentContent,
  type DocumentsList,
  type DocumentType,
} from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { type FilingScope, filingNotFound, scopeWhere } from "../state/filing-scope.ts";
import type { DocumentDeps } from "./document-deps.ts";
import { ensureDocuments } from "./ensure-documents.ts";
import type { Filing, FilingPart } from "../generated/prisma/client.ts";

type AcceptedFiling = Filing & { parts: FilingPart[] };

const RENDERED: readonly DocumentType[] = ["ct600_pdf", "accounts_pdf"];

/**
 * The filing, if it is in the scope (the key's own, or the account's): one outside it is as
 * unknown as one that does not exist.
 */
async function ownFiling(db: FilingDb, scope: FilingScope, filingId: string): Promise<AcceptedFiling> {
  const filing = await db.filing.findFirst({ where: { id: filingId, ...scopeWhere(scope) }, include: { parts: true } });
  if (!filing) throw filingNotFound(scope);
  return filing;
}

function requireAccepted(filing: AcceptedFiling): void {
  if (filing.status !== "accepted") {
    throw new AppError("FILING_NOT_COMPLETE", `Documents are available once the filing is accepted; this filing is ${filing.status}`);
  }
}

/**
 * `filing.list_documents` (and `filing.account_list_documents`): FILING_NOT_COMPLETE until the filing is accepted, then every document
 * it has, PDFs rendered first if they are still missing (see ensureDocuments). A split CT600 has
 * two entries of each type, told apart by their names (`…-part1.pdf`, `…-part2.pdf`); a
 * download picks one with `part`.
 */
export async function listDocuments(deps: DocumentDeps, scope: FilingScope, filingId: string): Promise<DocumentsList> {
  const filing = await ownFiling(deps.db, scope, filingId);
  requireAccepted(filing);
  await ensureDocuments(deps, filing);
  const documents = await deps.db.document.findMany({
    where: { filingId },
    select: { type: true, fileName: true, sizeBytes: true, generatedAt: true },
    orderBy: [{ type: "asc" }, { partNumber: "asc" }],
  });
  return {
    filing_id: filingId,
    documents: documents.map((d) => ({
      type: d.type,
      name: d.fileName,
      size_bytes: d.sizeBytes,
      generated_at: d.generatedAt.toISOString(),
    })),
  };
}

interface DocumentSlice {
  mediaType: string;
  fileName: string;
  sizeBytes: number;
  generatedAt: Date;
  bytes: Buffer;
}

/**
 * The stored part number of the requested document: CT600 documents are per part (`part`
 * defaults to 1), accounts documents have none (only `part` 1 or none finds them).
 */
function storedPartNumber(filing: AcceptedFiling, type: DocumentType, part: number | undefined): number | null {
  const missing = () => new AppError("DOCUMENT_NOT_FOUND", `This filing has no part ${part} of its ${type} document`);
  if (filing.filingType === "accounts") {
    if (part !== undefined && part !== 1) throw missing();
    return null;
  }
  const partNumber = part ?? 1;
  if (!filing.parts.some((p) => p.partNumber === partNumber)) throw missing();
  return partNumber;
}

/** `length` bytes from `offset` (all of it without a range), read by PostgreSQL as a slice. */
async function readSlice(
  db: FilingDb,
  filingId: string,
  type: DocumentType,
  partNumber: number | null,
  range?: { offset: number; length: number },
): Promise<DocumentSlice | undefined> {
  const from = (range?.offset ?? 0) + 1;
  const length = range?.length ?? 2_147_483_647;
  const rows = await db.$queryRaw<
    Array<{ media_type: string; file_name: string; size_bytes: number; generated_at: Date; slice: Uint8Array }>
  >`
    SELECT media_type, file_name, size_bytes, generated_at, substring(content FROM ${from}::int FOR ${length}::int) AS slice
    FROM documents
    WHERE filing_id = ${filingId} AND type = ${type}::document_type AND part_number IS NOT DISTINCT FROM ${partNumber}::int`;
  const row = rows[0];
  if (!row) return undefined;
  return {
    mediaType: row.media_type,
    fileName: row.file_name,
    sizeBytes: row.size_bytes,
    generatedAt: row.generated_at,
    bytes: Buffer.from(row.slice),
  };
}

/** Which document of a filing a download asks for. */
interface DocumentRequest {
  filing_id: string;
  document_type: DocumentType;
  part?: number | undefined;
}

/**
 * One document's bytes (or a slice of them): FILING_NOT_FOUND for a filing outside the scope,
 * DOCUMENT_NOT_FOUND for a type the filing's kind never has or a part it does not have,
 * FILING_NOT_COMPLETE before acceptance. A PDF not rendered yet is rendered now (and stored), so
 * a download never depends on the filing.accepted event having been handled.
 */
async function readDocument(
  deps: DocumentDeps,
  scope: FilingScope,
  request: DocumentRequest,
  range?: { offset: number; length: number },
): Promise<DocumentSlice> {
  const type = request.document_type;
  const filing = await ownFiling(deps.db, scope, request.filing_id);
  if (!DOCUMENT_TYPES_BY_FILING_TYPE[filing.filingType].includes(type)) {
    throw new AppError("DOCUMENT_NOT_FOUND", `A ${filing.filingType} filing has no ${type} document`);
  }
  requireAccepted(filing);
  const partNumber = storedPartNumber(filing, type, request.part);
  let slice = await readSlice(deps.db, filing.id, type, partNumber, range);
  if (!slice && RENDERED.includes(type)) {
    await ensureDocuments(deps, filing);
    slice = await readSlice(deps.db, filing.id, type, partNumber, range);
  }
  if (!slice) throw new AppError("DOCUMENT_NOT_FOUND", `This filing's ${type} document is not available`);
  return slice;
}

/** `filing.get_document`: the whole document in one reply. */
export async function getDocument(deps: DocumentDeps, scope: FilingScope, request: DocumentRequest): Promise<DocumentContent> {
  const document = await readDocument(deps, scope, request);
  return {
    document_type: request.document_type,
    media_type: document.mediaType,
    file_name: document.fileName,
    content_base64: document.bytes.toString("base64"),
  };
}

/**
 * `filing.get_document_chunk` (and `filing.account_get_document_chunk`): `length` bytes from `offset` (fewer at the end, none past it)
 * with the document's total size and version, so that the gateway can stream a download slice by
 * slice without holding the whole document.
 */
export async function getDocumentChunk(
  deps: DocumentDeps,
  scope: FilingScope,
  request: DocumentRequest & { offset: number; length: number },
): Promise<DocumentChunk> {
  const document = await readDocument(deps, scope, request, { offset: request.offset, length: request.length });
  return {
    document_type: request.document_type,
    media_type: document.mediaType,
    file_name: document.fileName,
    total_bytes: document.sizeBytes,
    generated_at: document.generatedAt.toISOString(),
    offset: request.offset,
    content_base64: document.bytes.toString("base64"),
  };
}
