import {
  AppError,
  DOCUMENT_TYPES_BY_FILING_TYPE,
  type DocumentContent,
  type DocumentsList,
  type DocumentType,
  type Filing as FilingView,
  type FilingRpcCaller,
  type FilingsList,
  type ListFilingsCriteria,
} from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import type { Filing } from "../generated/prisma/client.ts";
import { filingSummary, filingView } from "./filing-view.ts";

const notFound = () => new AppError("FILING_NOT_FOUND", "No filing with this id for this API key");

/** The caller's own filing: another key's filing is exactly as unknown as a filing that does not exist. */
async function ownFiling(db: FilingDb, caller: FilingRpcCaller, filingId: string): Promise<Filing> {
  const filing = await db.filing.findFirst({ where: { id: filingId, keyId: caller.key_id } });
  if (!filing) throw notFound();
  return filing;
}

/** `filing.get`. */
export async function getFiling(db: FilingDb, caller: FilingRpcCaller, filingId: string): Promise<FilingView> {
  const filing = await db.filing.findFirst({ where: { id: filingId, keyId: caller.key_id }, include: { parts: true } });
  if (!filing) throw notFound();
  return filingView(filing);
}

/** `filing.list`: the key's filings, newest first, filtered, one page with the total. */
export async function listFilings(db: FilingDb, caller: FilingRpcCaller, criteria: ListFilingsCriteria): Promise<FilingsList> {
  const where = {
    keyId: caller.key_id,
    ...(criteria.status ? { status: criteria.status } : {}),
    ...(criteria.type ? { filingType: criteria.type } : {}),
    ...(criteria.company_number ? { companyNumber: criteria.company_number } : {}),
  };
  const [total, filings] = await db.$transaction([
    db.filing.count({ where }),
    db.filing.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: criteria.offset, take: criteria.limit }),
  ]);
  return {
    filings: filings.map(filingSummary),
    pagination: { total, limit: criteria.limit, offset: criteria.offset, has_more: criteria.offset + filings.length < total },
  };
}

/**
 * `filing.list_documents`: only once accepted (FILING_NOT_COMPLETE before), then the documents
 * kept so far. A split CT600 has a ct600_xml document per part.
 */
export async function listDocuments(db: FilingDb, caller: FilingRpcCaller, filingId: string): Promise<DocumentsList> {
  const filing = await ownFiling(db, caller, filingId);
  if (filing.status !== "accepted") throw new AppError("FILING_NOT_COMPLETE", "Documents are available once the filing is accepted");
  const documents = await db.document.findMany({
    where: { filingId },
    select: { type: true, fileName: true, sizeBytes: true, generatedAt: true },
    orderBy: [{ type: "asc" }, { partNumber: "asc" }],
  });
  return {
    filing_id: filingId,
    documents: documents.map((d) => ({ type: d.type, name: d.fileName, size_bytes: d.sizeBytes, generated_at: d.generatedAt.toISOString() })),
  };
}

/**
 * `filing.get_document`: a type the filing's kind never has is DOCUMENT_NOT_FOUND; before
 * acceptance FILING_NOT_COMPLETE; then the stored bytes (for a split CT600's ct600_xml, part 1's:
 * the API has no part parameter), or DOCUMENT_NOT_FOUND for one not kept (yet).
 */
export async function getDocument(db: FilingDb, caller: FilingRpcCaller, filingId: string, type: DocumentType): Promise<DocumentContent> {
  const filing = await ownFiling(db, caller, filingId);
  const missing = () => new AppError("DOCUMENT_NOT_FOUND", `This filing has no ${type} document`);
  if (!DOCUMENT_TYPES_BY_FILING_TYPE[filing.filingType].includes(type)) throw missing();
  if (filing.status !== "accepted") throw new AppError("FILING_NOT_COMPLETE", "Documents are available once the filing is accepted");
  const document = await db.document.findFirst({ where: { filingId, type }, orderBy: { partNumber: "asc" } });
  if (!document) throw missing();
  return {
    document_type: type,
    media_type: document.mediaType,
    file_name: document.fileName,
    content_base64: Buffer.from(document.content).toString("base64"),
  };
}
