import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { FILING_READ_COLUMNS, type PART_PREFIX, type FilingColumns } from "./filing-columns.ts";
import type { FilingRecord, PartRecord } from "./filing-record.ts";
import { type FilingScope, scopeSql } from "./filing-scope.ts";

/** A part's columns in a row of a filing read: `part_<field>`, null without parts. */
type PartColumnsRow = { [Field in keyof PartRecord as `${typeof PART_PREFIX}${Field}`]: PartRecord[Field] };

/** A row of a filing read (FILING_READ_COLUMNS): the filing's columns, one of its parts' (null without parts). */
export type FilingRow = FilingColumns & Omit<PartColumnsRow, "part_partNumber"> & { part_partNumber: number | null };

function filingOf(row: FilingRow): FilingRecord {
  return {
    id: row.id,
    accountId: row.accountId,
    keyId: row.keyId,
    idempotencyKey: row.idempotencyKey,
    requestFingerprint: row.requestFingerprint,
    requestId: row.requestId,
    filingType: row.filingType,
    companyNumber: row.companyNumber,
    companyName: row.companyName,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    periodSplit: row.periodSplit,
    status: row.status,
    feePence: row.feePence,
    derivedValues: row.derivedValues,
    registryStatus: row.registryStatus,
    registrySubmissionNumber: row.registrySubmissionNumber,
    registryRequest: row.registryRequest,
    registryExamination:
      row.registryStatusCode !== null && row.registryStatusSince !== null
        ? { statusCode: row.registryStatusCode, since: row.registryStatusSince, examinerComment: row.registryExaminerComment }
        : null,
    clientReference: row.clientReference,
    acceptedLate: row.acceptedLate,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    claimToken: row.claimToken,
    submittedAt: row.submittedAt,
    finalizedAt: row.finalizedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
    parts: [],
  };
}

function partOf(row: FilingRow, partNumber: number): PartRecord {
  return {
    partNumber,
    periodStart: row.part_periodStart,
    periodEnd: row.part_periodEnd,
    taxStatus: row.part_taxStatus,
    taxCorrelationId: row.part_taxCorrelationId,
    taxIruNumber: row.part_taxIruNumber,
    irmark: row.part_irmark,
    taxReceiptMessage: row.part_taxReceiptMessage,
    taxAcceptedAt: row.part_taxAcceptedAt,
    submitRequest: row.part_submitRequest,
    submittedAt: row.part_submittedAt,
    errorCode: row.part_errorCode,
    errorMessage: row.part_errorMessage,
    updatedAt: row.part_updatedAt,
  };
}

/** The records in rows of a filing read (parts joined), in the order of their first row. */
export function filingsFromRows(rows: readonly FilingRow[]): FilingRecord[] {
  const byId = new Map<string, FilingRecord>();
  for (const row of rows) {
    let filing = byId.get(row.id);
    if (!filing) {
      filing = filingOf(row);
      byId.set(row.id, filing);
    }
    if (row.part_partNumber !== null) filing.parts.push(partOf(row, row.part_partNumber));
  }
  for (const filing of byId.values()) filing.parts.sort((a, b) => a.partNumber - b.partNumber);
  return [...byId.values()];
}

/**
 * One filing with its parts, in one statement; null when there is none (or, with a `scope`, when
 * it is outside it: another API key's, or another account's).
 */
export async function readFiling(
  db: FilingDb,
  filingId: string,
  options: {
    scope?: FilingScope;
    /** Names the statement in the database's log (`documents`: the documents consumer's work). */
    label?: "documents";
  } = {},
): Promise<FilingRecord | null> {
  const owner = options.scope === undefined ? Prisma.empty : Prisma.sql`AND ${scopeSql(options.scope, "f")}`;
  const label = options.label === "documents" ? Prisma.sql`/* documents */` : Prisma.empty;
  const rows = await db.$queryRaw<FilingRow[]>`
    ${label} SELECT ${FILING_READ_COLUMNS}
    FROM filings f LEFT JOIN filing_parts p ON p.filing_id = f.id
    WHERE f.id = ${filingId} ${owner}
    ORDER BY p.part_number`;
  return filingsFromRows(rows)[0] ?? null;
}
