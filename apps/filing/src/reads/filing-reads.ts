import type { Filing as FilingView, FilingsList, ListFilingsCriteria } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { readFiling } from "../state/filing-rows.ts";
import { type FilingScope, filingNotFound, scopeSql } from "../state/filing-scope.ts";
import { filingSummary, filingView, type SummaryFields } from "./filing-view.ts";

/**
 * `filing.get` (the key's filing) and `filing.account_get` (the account's): a filing outside the
 * scope is exactly as unknown as a filing that does not exist. One statement.
 */
export async function getFiling(db: FilingDb, scope: FilingScope, filingId: string): Promise<FilingView> {
  const filing = await readFiling(db, filingId, { scope });
  if (!filing) throw filingNotFound(scope);
  return filingView(filing);
}

interface PageRow {
  total: number;
  page: Array<Omit<SummaryFields, "periodEnd" | "createdAt"> & { periodEnd: string; createdAt: string }> | null;
}

/**
 * `filing.list` (the key's filings) and `filing.account_list` (the account's): newest first,
 * filtered, one page with the total, in one statement (the count and the page from the same
 * snapshot). The page is a range read of the scope's index, (key_id, created_at DESC) or
 * (account_id, created_at DESC, id DESC).
 */
export async function listFilings(db: FilingDb, scope: FilingScope, criteria: ListFilingsCriteria): Promise<FilingsList> {
  const filters = [
    scopeSql(scope),
    ...(criteria.status ? [Prisma.sql`status = ${criteria.status}::filing_status`] : []),
    ...(criteria.type ? [Prisma.sql`filing_type = ${criteria.type}::filing_type`] : []),
    ...(criteria.company_number ? [Prisma.sql`company_number = ${criteria.company_number}`] : []),
    ...(criteria.client_reference ? [Prisma.sql`client_reference = ${criteria.client_reference}`] : []),
  ];
  const where = Prisma.join(filters, " AND ");
  const [row] = await db.$queryRaw<PageRow[]>`
    SELECT
      (SELECT count(*)::int FROM filings WHERE ${where}) AS total,
      (SELECT json_agg(json_build_object(
          'id', id, 'filingType', filing_type, 'companyNumber', company_number, 'companyName', company_name,
          'periodEnd', period_end, 'status', status, 'clientReference', client_reference, 'createdAt', created_at) ORDER BY created_at DESC, id DESC)
        FROM (SELECT * FROM filings WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${criteria.limit}::int OFFSET ${criteria.offset}::int) AS page) AS page`;
  const total = row?.total ?? 0;
  const filings = (row?.page ?? []).map((f) =>
    filingSummary({ ...f, periodEnd: new Date(`${f.periodEnd}T00:00:00.000Z`), createdAt: new Date(f.createdAt) }),
  );
  return {
    filings,
    pagination: { total, limit: criteria.limit, offset: criteria.offset, has_more: criteria.offset + filings.length < total },
  };
}
