import { FilingStatusChange, type FilingStatusHistory } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { type FilingScope, filingNotFound, scopeSql } from "../state/filing-scope.ts";

/** A row of the history read: the history's columns are null for a filing without any (the LEFT JOIN's row). */
interface HistoryRow {
  field: string | null;
  part_number: number | null;
  from_status: string | null;
  to_status: string | null;
  occurred_at: Date | string | null;
}

const FIELDS: ReadonlySet<string> = new Set(FilingStatusChange.shape.field.options);

/**
 * `filing.account_history`: every status change `status_history` recorded for one filing of the
 * scope, oldest first (the table's id order, the order the changes were written in). A filing
 * outside the scope is exactly as unknown as one that does not exist. One statement: the filing
 * by its primary key and the scope's condition, its history a range of status_history's
 * (filing_id, id) index. The rows' `cause` (request ids, correlation ids, the operator's words)
 * stays in the table: the reader is told what changed and when, not why.
 */
export async function filingHistory(db: FilingDb, scope: FilingScope, filingId: string): Promise<FilingStatusHistory> {
  const rows = await db.$queryRaw<HistoryRow[]>`
    SELECT h.field, h.part_number, h.from_status, h.to_status, h.occurred_at
      FROM filings f LEFT JOIN status_history h ON h.filing_id = f.id
     WHERE f.id = ${filingId} AND ${scopeSql(scope, "f")}
     ORDER BY h.id`;
  if (rows.length === 0) throw filingNotFound(scope);
  const changes = rows.flatMap((row): FilingStatusHistory["changes"] => {
    // The LEFT JOIN's empty row (no history), or a field the contract does not know (none is written today).
    if (row.field === null || row.to_status === null || row.occurred_at === null || !FIELDS.has(row.field)) return [];
    return [
      {
        field: row.field as FilingStatusChange["field"],
        ...(row.part_number === null ? {} : { part_number: row.part_number }),
        from_status: row.from_status,
        to_status: row.to_status,
        occurred_at: new Date(row.occurred_at).toISOString(),
      },
    ];
  });
  return { filing_id: filingId, changes };
}
