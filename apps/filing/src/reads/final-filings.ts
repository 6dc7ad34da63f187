import type { FinalFiling, ListFinalFilingsRequest, ListFinalFilingsResponse } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";

interface FinalRow {
  id: string;
  account_id: string;
  status: "accepted" | "rejected" | "error";
  fee_pence: number;
  finalized_at: Date;
}

function finalFiling(row: FinalRow): FinalFiling {
  const common = { filing_id: row.id, account_id: row.account_id, finalized_at: row.finalized_at.toISOString() };
  return row.status === "accepted" ? { ...common, status: "accepted", fee_pence: row.fee_pence } : { ...common, status: row.status };
}

/** The page's statement (exported for the test that checks it reads the index). */
export function finalFilingsPageSql(request: ListFinalFilingsRequest): Prisma.Sql {
  const after = request.after
    ? Prisma.sql`AND ("finalized_at", "id" COLLATE "C") > (${request.after.finalized_at}::timestamptz, ${request.after.filing_id}::text)`
    : Prisma.empty;
  return Prisma.sql`
    SELECT "id", "account_id", "status"::text AS "status", "fee_pence", "finalized_at"
      FROM "filings"
     WHERE "finalized_at" >= ${request.since}::timestamptz AND "finalized_at" < ${request.until}::timestamptz ${after}
       AND "status" IN ('accepted', 'rejected', 'error')
     ORDER BY "finalized_at", "id" COLLATE "C"
     LIMIT ${request.limit + 1}::int`;
}

/**
 * `filing.list_final`: the filings finalized in `[since, until)`, in the order (finalized_at, id)
 * with ids compared byte by byte, after `after` when given; `next` when more follow. One
 * statement per page, a range read of the partial index `filings_finalized_at_id_idx` (it reads
 * one row more than the page to know whether another page follows).
 */
export async function listFinalFilings(db: FilingDb, request: ListFinalFilingsRequest): Promise<ListFinalFilingsResponse> {
  const rows = await db.$queryRaw<FinalRow[]>(finalFilingsPageSql(request));
  const page = rows.slice(0, request.limit).map(finalFiling);
  const last = page.at(-1);
  return rows.length > request.limit && last
    ? { filings: page, next: { finalized_at: last.finalized_at, filing_id: last.filing_id } }
    : { filings: page };
}
