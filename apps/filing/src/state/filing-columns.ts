import { Prisma, type Filing } from "../generated/prisma/client.ts";
import type { FilingRecord, PartRecord, RegistryExaminationColumn } from "./filing-record.ts";

/**
 * The one column map of a filing record: every `filings` and `filing_parts` column a record is
 * read from, by its field name (the Prisma model's), with the SQL type it is read and written as.
 * The column's name is the field's in snake_case (`accountId` → `account_id`, as the schema maps
 * it); a field missing here, or one the record does not have, does not compile. The reads'
 * SELECT list (below), the rows' type (filing-rows.ts) and the writer's SET clauses
 * (write-filing.ts) all come from it.
 */
export type SqlType = "text" | "int" | "boolean" | "date" | "timestamptz" | "jsonb" | "filing_type" | "filing_status" | "submission_status";

/** The filings columns a record is read from: its own fields, and the three its `registryExamination` is made of. */
export type FilingColumns = Omit<FilingRecord, "registryExamination" | "parts"> & Pick<Filing, RegistryExaminationColumn>;

export const FILING_COLUMNS = {
  id: "text",
  accountId: "text",
  keyId: "text",
  idempotencyKey: "text",
  requestFingerprint: "text",
  requestId: "text",
  filingType: "filing_type",
  companyNumber: "text",
  companyName: "text",
  periodStart: "date",
  periodEnd: "date",
  periodSplit: "boolean",
  status: "filing_status",
  feePence: "int",
  derivedValues: "jsonb",
  registryStatus: "submission_status",
  registrySubmissionNumber: "text",
  registryRequest: "jsonb",
  registryStatusCode: "text",
  registryStatusSince: "timestamptz",
  registryExaminerComment: "text",
  clientReference: "text",
  acceptedLate: "boolean",
  errorCode: "text",
  errorMessage: "text",
  claimToken: "text",
  submittedAt: "timestamptz",
  finalizedAt: "timestamptz",
  createdAt: "timestamptz",
  updatedAt: "timestamptz",
  version: "int",
} as const satisfies Record<keyof FilingColumns, SqlType>;

export const PART_COLUMNS = {
  partNumber: "int",
  periodStart: "date",
  periodEnd: "date",
  taxStatus: "submission_status",
  taxCorrelationId: "text",
  taxIruNumber: "text",
  irmark: "text",
  taxReceiptMessage: "text",
  taxAcceptedAt: "timestamptz",
  submitRequest: "jsonb",
  submittedAt: "timestamptz",
  errorCode: "text",
  errorMessage: "text",
  updatedAt: "timestamptz",
} as const satisfies Record<keyof PartRecord, SqlType>;

/** The prefix of a part's columns in a filing read (its fields share names with the filing's). */
export const PART_PREFIX = "part_";

/** A field's column: `accountId` → `account_id`. */
export function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

const ENUM_TYPES: ReadonlySet<SqlType> = new Set(["filing_type", "filing_status", "submission_status"]);

/** `<alias>.<column>` as read (enums as text), named `<prefix><field>`. */
function selectList(alias: string, columns: Record<string, SqlType>, prefix = ""): string {
  return Object.entries(columns)
    .map(([field, type]) => `${alias}.${columnName(field)}${ENUM_TYPES.has(type) ? "::text" : ""} AS "${prefix}${field}"`)
    .join(", ");
}

/**
 * `SELECT <filing and part columns> FROM filings f LEFT JOIN filing_parts p …`: the columns of a
 * filing read, named as the fields of `FilingRow` (filing-rows.ts).
 */
export const FILING_READ_COLUMNS = Prisma.raw(`${selectList("f", FILING_COLUMNS)}, ${selectList("p", PART_COLUMNS, PART_PREFIX)}`);
