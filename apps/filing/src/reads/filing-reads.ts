import { AppError, type Filing as FilingView, type FilingRpcCaller, type FilingsList, type ListFilingsCriteria } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { filingSummary, filingView } from "./filing-view.ts";

const notFound = () => new AppError("FILING_NOT_FOUND", "No filing with this id for this API key");

/** `filing.get`: another key's filing is exactly as unknown as a filing that does not exist. */
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
