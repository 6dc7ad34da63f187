import { Prisma } from "../generated/prisma/client.ts";
import { CLAIM_ENDED_NOW } from "./claim-ended.ts";
import { columnName, FILING_COLUMNS, PART_COLUMNS, type SqlType } from "./filing-columns.ts";
import type { FilingRecord, PartRecord } from "./filing-record.ts";

/**
 * The SET clauses of a change: for each column a change may set, `column = value` when the value
 * after the change differs from the one before (the other columns never change once written).
 */
type Assignment<T> = (before: T, after: T) => Prisma.Sql | null;

const sqlValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
const same = (a: unknown, b: unknown) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b);

/** A field whose column is set as it is, typed by the column map. */
function column<T, Field extends keyof T & string>(field: Field, type: SqlType): Assignment<T> {
  return (before, after) =>
    same(before[field], after[field])
      ? null
      : Prisma.sql`${Prisma.raw(columnName(field))} = ${sqlValue(after[field])}::${Prisma.raw(type)}`;
}

/** A field set by a clause of its own (`sql` of its new value). */
function special<T, Field extends keyof T>(field: Field, sql: (value: T[Field]) => Prisma.Sql): Assignment<T> {
  return (before, after) => (same(before[field], after[field]) ? null : sql(after[field]));
}

/** What a change may set of a filing as it is (the rest never changes once written, or below). */
const FILING_SETTABLE = [
  "status",
  "registryStatus",
  "acceptedLate",
  "errorCode",
  "errorMessage",
  "idempotencyKey",
  "submittedAt",
  "finalizedAt",
  "updatedAt",
] as const satisfies ReadonlyArray<keyof FilingRecord & keyof typeof FILING_COLUMNS>;

const FILING_ASSIGNMENTS: Array<Assignment<FilingRecord>> = [
  ...FILING_SETTABLE.map((field) => column<FilingRecord, typeof field>(field, FILING_COLUMNS[field])),
  special<FilingRecord, "registryExamination">(
    "registryExamination",
    (value) =>
      Prisma.sql`registry_status_code = ${value?.statusCode ?? null}::text, registry_status_since = ${sqlValue(value?.since ?? null)}::timestamptz, registry_examiner_comment = ${value?.examinerComment ?? null}::text`,
  ),
  // A claim is only ever taken by claim.ts; a change may only drop it, its expiry becoming the
  // moment it ended (the sweeper counts from there).
  special<FilingRecord, "claimToken">("claimToken", (value) =>
    value === null ? Prisma.sql`claim_token = NULL, claim_expires_at = ${CLAIM_ENDED_NOW}` : Prisma.sql`claim_token = ${value}`,
  ),
];

/** What a change may set of a part (its number, period and request never change). */
const PART_SETTABLE = [
  "taxStatus",
  "taxCorrelationId",
  "taxIruNumber",
  "irmark",
  "taxReceiptMessage",
  "taxAcceptedAt",
  "submittedAt",
  "errorCode",
  "errorMessage",
  "updatedAt",
] as const satisfies ReadonlyArray<keyof PartRecord>;

const PART_ASSIGNMENTS: Array<Assignment<PartRecord>> = PART_SETTABLE.map((field) =>
  column<PartRecord, typeof field>(field, PART_COLUMNS[field]),
);

function assignments<T>(list: ReadonlyArray<Assignment<T>>, before: T, after: T): Prisma.Sql[] {
  return list.flatMap((assign) => assign(before, after) ?? []);
}

/** The `filings` SET clauses of a change (besides the version bump). */
export const filingAssignments = (before: FilingRecord, after: FilingRecord) => assignments(FILING_ASSIGNMENTS, before, after);

/** The `filing_parts` SET clauses of a change of one part. */
export const partAssignments = (before: PartRecord, after: PartRecord) => assignments(PART_ASSIGNMENTS, before, after);
