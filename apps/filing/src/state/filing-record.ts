import type { FilingStatus } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { SubmissionStatus } from "./filing-state.ts";

/**
 * A filing as the service works on it in memory: the `filings` row (without the accounts facts,
 * which only the documents read) and its CT600 parts, at the version it was read or written at.
 *
 * Every change of a filing is computed in memory from such a record (src/state/transitions.ts)
 * and written back by `writeFiling` as ONE statement: the filing's UPDATE checks that its
 * version is still the one the change was computed from (and bumps it), and the parts' updates,
 * the history rows, the documents, the outbox event and the inbox row of the change are
 * data-modifying CTEs that join that UPDATE, so they happen if and only if it did. A change
 * computed from a stale read changes nothing and is computed again from a fresh read: the
 * version check does what a row lock held over several statements did before, without the
 * round trips (BEGIN, SELECT … FOR UPDATE, the reads, one statement per row, COMMIT).
 *
 * Every UPDATE of `filings` bumps `version`, claims included, so a record also tells whether
 * the claim it shows is still current.
 */
export interface PartRecord {
  partNumber: number;
  periodStart: Date;
  periodEnd: Date;
  taxStatus: SubmissionStatus;
  taxCorrelationId: string | null;
  taxIruNumber: string | null;
  irmark: string | null;
  taxReceiptMessage: string | null;
  taxAcceptedAt: Date | null;
  /** The tax.submit_part request without its credentials. */
  submitRequest: unknown;
  submittedAt: Date | null;
  errorCode: string | null;
  errorMessage: string | null;
  updatedAt: Date;
}

export interface FilingRecord {
  id: string;
  accountId: string;
  keyId: string;
  idempotencyKey: string | null;
  requestFingerprint: string;
  requestId: string;
  filingType: "ct600" | "accounts";
  companyNumber: string;
  companyName: string;
  periodStart: Date;
  periodEnd: Date;
  periodSplit: boolean;
  status: FilingStatus;
  feePence: number;
  derivedValues: unknown;
  registryStatus: SubmissionStatus | null;
  registrySubmissionNumber: string | null;
  /** The registry.submit_accounts request without credentials and iXBRL. */
  registryRequest: unknown;
  /** Accounts the registry holds undecided (PENDING, PARKED), as last reported; null before (src/outcomes/registry-changes.ts). */
  registryExamination?: RegistryExaminationRecord | null;
  errorCode: string | null;
  errorMessage: string | null;
  claimToken: string | null;
  submittedAt: Date | null;
  finalizedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  /** CT600 parts by part number (none for accounts). */
  parts: PartRecord[];
}

/** The registry's undecided status of accounts: its code, since when, the examiner's comment. */
export interface RegistryExaminationRecord {
  statusCode: string;
  since: Date;
  examinerComment: string | null;
}

/** A row of `status_history` written with a change (occurred_at is the statement's time). */
export interface HistoryEntry {
  partNumber: number | null;
  field: "status" | "tax_status" | "registry_status" | "registry_status_code";
  from: string | null;
  to: string;
  cause: string;
}

/** An outbox row written with a change (its payload already checked against the message schema). */
export interface OutboxEvent {
  messageId: string;
  type: string;
  payload: unknown;
  requestId: string;
  occurredAt: Date;
}

/** A document written with a change; one already stored for the same (filing, type, part) is kept. */
export interface DocumentRow {
  type: "ct600_pdf" | "ct600_xml" | "ixbrl_accounts" | "accounts_pdf";
  partNumber: number | null;
  mediaType: string;
  fileName: string;
  content: Uint8Array;
  generatedAt: Date;
}

/** Everything one change writes: the filing as it is afterwards, and the rows that go with it. */
export interface FilingWrite {
  /** The record the change was computed from (its version is checked, its values diffed). */
  before: FilingRecord;
  /** The record as it is after the change (same id and parts). */
  after: FilingRecord;
  history: readonly HistoryEntry[];
  events: readonly OutboxEvent[];
  documents?: readonly DocumentRow[];
  /** The message the change applies (filing.outcomes): its inbox row, in the same statement. */
  inbox?: { messageId: string; type: string };
}

// ---------------------------------------------------------------------------------------------
// Reading

const FILING_COLUMNS = Prisma.raw(`
  f.id, f.account_id, f.key_id, f.idempotency_key, f.request_fingerprint, f.request_id, f.filing_type::text AS filing_type,
  f.company_number, f.company_name, f.period_start, f.period_end, f.period_split, f.status::text AS status, f.fee_pence,
  f.derived_values, f.registry_status::text AS registry_status, f.registry_submission_number, f.registry_request,
  f.registry_status_code, f.registry_status_since, f.registry_examiner_comment,
  f.error_code, f.error_message, f.claim_token, f.submitted_at, f.finalized_at, f.created_at, f.updated_at, f.version`);

const PART_COLUMNS = Prisma.raw(`
  p.part_number AS p_part_number, p.period_start AS p_period_start, p.period_end AS p_period_end,
  p.tax_status::text AS p_tax_status, p.tax_correlation_id AS p_tax_correlation_id, p.tax_iru_number AS p_tax_iru_number,
  p.irmark AS p_irmark, p.tax_receipt_message AS p_tax_receipt_message, p.tax_accepted_at AS p_tax_accepted_at,
  p.submit_request AS p_submit_request, p.submitted_at AS p_submitted_at, p.error_code AS p_error_code,
  p.error_message AS p_error_message, p.updated_at AS p_updated_at`);

/** A row of a filing read: the filing's columns, one of its parts' (null without parts). */
export interface FilingRow {
  id: string;
  account_id: string;
  key_id: string;
  idempotency_key: string | null;
  request_fingerprint: string;
  request_id: string;
  filing_type: "ct600" | "accounts";
  company_number: string;
  company_name: string;
  period_start: Date;
  period_end: Date;
  period_split: boolean;
  status: FilingStatus;
  fee_pence: number;
  derived_values: unknown;
  registry_status: SubmissionStatus | null;
  registry_submission_number: string | null;
  registry_request: unknown;
  registry_status_code: string | null;
  registry_status_since: Date | null;
  registry_examiner_comment: string | null;
  error_code: string | null;
  error_message: string | null;
  claim_token: string | null;
  submitted_at: Date | null;
  finalized_at: Date | null;
  created_at: Date;
  updated_at: Date;
  version: number;
  p_part_number: number | null;
  p_period_start: Date;
  p_period_end: Date;
  p_tax_status: SubmissionStatus;
  p_tax_correlation_id: string | null;
  p_tax_iru_number: string | null;
  p_irmark: string | null;
  p_tax_receipt_message: string | null;
  p_tax_accepted_at: Date | null;
  p_submit_request: unknown;
  p_submitted_at: Date | null;
  p_error_code: string | null;
  p_error_message: string | null;
  p_updated_at: Date;
}

/** `SELECT <filing and part columns> FROM filings f LEFT JOIN filing_parts p …`: the columns of a filing read. */
export const FILING_READ_COLUMNS = Prisma.sql`${FILING_COLUMNS}, ${PART_COLUMNS}`;

/** The records in rows of a filing read (parts joined), in the order of their first row. */
export function filingsFromRows(rows: readonly FilingRow[]): FilingRecord[] {
  const byId = new Map<string, FilingRecord>();
  for (const row of rows) {
    let filing = byId.get(row.id);
    if (!filing) {
      filing = {
        id: row.id,
        accountId: row.account_id,
        keyId: row.key_id,
        idempotencyKey: row.idempotency_key,
        requestFingerprint: row.request_fingerprint,
        requestId: row.request_id,
        filingType: row.filing_type,
        companyNumber: row.company_number,
        companyName: row.company_name,
        periodStart: row.period_start,
        periodEnd: row.period_end,
        periodSplit: row.period_split,
        status: row.status,
        feePence: row.fee_pence,
        derivedValues: row.derived_values,
        registryStatus: row.registry_status,
        registrySubmissionNumber: row.registry_submission_number,
        registryRequest: row.registry_request,
        registryExamination:
          row.registry_status_code !== null && row.registry_status_since !== null
            ? { statusCode: row.registry_status_code, since: row.registry_status_since, examinerComment: row.registry_examiner_comment }
            : null,
        errorCode: row.error_code,
        errorMessage: row.error_message,
        claimToken: row.claim_token,
        submittedAt: row.submitted_at,
        finalizedAt: row.finalized_at,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        version: row.version,
        parts: [],
      };
      byId.set(row.id, filing);
    }
    if (row.p_part_number !== null) {
      filing.parts.push({
        partNumber: row.p_part_number,
        periodStart: row.p_period_start,
        periodEnd: row.p_period_end,
        taxStatus: row.p_tax_status,
        taxCorrelationId: row.p_tax_correlation_id,
        taxIruNumber: row.p_tax_iru_number,
        irmark: row.p_irmark,
        taxReceiptMessage: row.p_tax_receipt_message,
        taxAcceptedAt: row.p_tax_accepted_at,
        submitRequest: row.p_submit_request,
        submittedAt: row.p_submitted_at,
        errorCode: row.p_error_code,
        errorMessage: row.p_error_message,
        updatedAt: row.p_updated_at,
      });
    }
  }
  for (const filing of byId.values()) filing.parts.sort((a, b) => a.partNumber - b.partNumber);
  return [...byId.values()];
}

/**
 * One filing with its parts, in one statement; null when there is none (or, with `keyId`, when
 * it belongs to another API key).
 */
export async function readFiling(db: FilingDb, filingId: string, options: { keyId?: string } = {}): Promise<FilingRecord | null> {
  const owner = options.keyId === undefined ? Prisma.empty : Prisma.sql`AND f.key_id = ${options.keyId}`;
  const rows = await db.$queryRaw<FilingRow[]>`
    SELECT ${FILING_READ_COLUMNS}
    FROM filings f LEFT JOIN filing_parts p ON p.filing_id = f.id
    WHERE f.id = ${filingId} ${owner}
    ORDER BY p.part_number`;
  return filingsFromRows(rows)[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Writing

const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const same = (a: unknown, b: unknown) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b);

type Setter<T> = [keyof T & string, (value: never) => Prisma.Sql];

const text = (column: string) => (value: string | null) => Prisma.sql`${Prisma.raw(column)} = ${value}::text`;
const time = (column: string) => (value: Date | null) => Prisma.sql`${Prisma.raw(column)} = ${iso(value)}::timestamptz`;
const submissionStatus = (column: string) => (value: string | null) => Prisma.sql`${Prisma.raw(column)} = ${value}::submission_status`;

/** The columns of `filings` a change may set (the rest never changes once written). */
const FILING_SETTERS: Array<Setter<FilingRecord>> = [
  ["status", (value: string) => Prisma.sql`status = ${value}::filing_status`],
  ["registryStatus", submissionStatus("registry_status")],
  [
    "registryExamination",
    (value: RegistryExaminationRecord | null | undefined) =>
      Prisma.sql`registry_status_code = ${value?.statusCode ?? null}::text, registry_status_since = ${iso(value?.since ?? null)}::timestamptz, registry_examiner_comment = ${value?.examinerComment ?? null}::text`,
  ],
  ["errorCode", text("error_code")],
  ["errorMessage", text("error_message")],
  // A claim is only ever taken by claim.ts; a change may only drop it (with its expiry).
  ["claimToken", (value: string | null) => (value === null ? Prisma.sql`claim_token = NULL, claim_expires_at = NULL` : Prisma.sql`claim_token = ${value}`)],
  ["idempotencyKey", text("idempotency_key")],
  ["submittedAt", time("submitted_at")],
  ["finalizedAt", time("finalized_at")],
  ["updatedAt", time("updated_at")],
];

const PART_SETTERS: Array<Setter<PartRecord>> = [
  ["taxStatus", submissionStatus("tax_status")],
  ["taxCorrelationId", text("tax_correlation_id")],
  ["taxIruNumber", text("tax_iru_number")],
  ["irmark", text("irmark")],
  ["taxReceiptMessage", text("tax_receipt_message")],
  ["taxAcceptedAt", time("tax_accepted_at")],
  ["submittedAt", time("submitted_at")],
  ["errorCode", text("error_code")],
  ["errorMessage", text("error_message")],
  ["updatedAt", time("updated_at")],
];

function assignments<T>(setters: Array<Setter<T>>, before: T, after: T): Prisma.Sql[] {
  return setters.filter(([key]) => !same(before[key as keyof T], after[key as keyof T])).map(([key, set]) => set(after[key as keyof T] as never));
}

/** The data-modifying CTEs that go with a change, each joined to the filing's UPDATE (`f`). */
function companions(write: FilingWrite): Prisma.Sql[] {
  const ctes: Prisma.Sql[] = [];
  for (const part of write.after.parts) {
    const was = write.before.parts.find((p) => p.partNumber === part.partNumber);
    if (!was) throw new Error(`part ${part.partNumber} of ${write.after.id} does not exist`);
    const sets = assignments(PART_SETTERS, was, part);
    if (sets.length === 0) continue;
    ctes.push(Prisma.sql`${Prisma.raw(`part${part.partNumber}`)} AS (
      UPDATE filing_parts SET ${Prisma.join(sets, ", ")} FROM f WHERE filing_parts.filing_id = f.id AND filing_parts.part_number = ${part.partNumber}::int)`);
  }
  if (write.history.length > 0) {
    const rows = write.history.map((h, i) => Prisma.sql`(${i}::int, ${h.partNumber}::int, ${h.field}::text, ${h.from}::text, ${h.to}::text, ${h.cause}::text)`);
    ctes.push(Prisma.sql`history AS (
      INSERT INTO status_history (filing_id, part_number, field, from_status, to_status, cause)
      SELECT f.id, v.part_number, v.field, v.from_status, v.to_status, v.cause
      FROM f CROSS JOIN (VALUES ${Prisma.join(rows)}) AS v(ord, part_number, field, from_status, to_status, cause) ORDER BY v.ord)`);
  }
  if (write.documents && write.documents.length > 0) {
    const rows = write.documents.map(
      (d) =>
        Prisma.sql`(${d.type}::document_type, ${d.partNumber}::int, ${d.mediaType}::text, ${d.fileName}::text, ${d.content}::bytea, ${d.content.length}::int, ${iso(d.generatedAt)}::timestamptz)`,
    );
    ctes.push(Prisma.sql`docs AS (
      INSERT INTO documents (filing_id, type, part_number, media_type, file_name, content, size_bytes, generated_at)
      SELECT f.id, v.* FROM f CROSS JOIN (VALUES ${Prisma.join(rows)}) AS v(type, part_number, media_type, file_name, content, size_bytes, generated_at)
      ON CONFLICT DO NOTHING)`);
  }
  if (write.events.length > 0) {
    ctes.push(Prisma.sql`events AS (
      INSERT INTO outbox (message_id, type, payload, request_id, occurred_at)
      SELECT v.* FROM f CROSS JOIN (VALUES ${Prisma.join(write.events.map(outboxValues))}) AS v(message_id, type, payload, request_id, occurred_at))`);
  }
  if (write.inbox) {
    // A plain insert: if a concurrent delivery of the same message recorded it first, the unique
    // key fails the whole statement, so the change is not applied twice.
    ctes.push(Prisma.sql`inbox_row AS (
      INSERT INTO inbox (message_id, type, filing_id) SELECT ${write.inbox.messageId}::text, ${write.inbox.type}::text, f.id FROM f)`);
  }
  return ctes;
}

/** An outbox row's values: (message_id, type, payload, request_id, occurred_at). */
export function outboxValues(event: OutboxEvent): Prisma.Sql {
  return Prisma.sql`(${event.messageId}::uuid, ${event.type}::text, ${JSON.stringify(event.payload)}::jsonb, ${event.requestId}::text, ${iso(event.occurredAt)}::timestamptz)`;
}

/**
 * Writes a change as one statement (see the head of this file). Returns the record as written
 * (with its new version), or null when the filing is no longer at `before.version` (changed
 * meanwhile, or removed): nothing was written, and the caller computes the change again from a
 * fresh read. Throws what the database refuses (e.g. the inbox row of a message recorded
 * meanwhile: see `isUniqueViolation`).
 */
export async function writeFiling(db: FilingDb, write: FilingWrite): Promise<FilingRecord | null> {
  const { before, after } = write;
  const sets = assignments(FILING_SETTERS, before, after);
  const ctes = companions(write);
  const rows = await db.$queryRaw<Array<{ version: number }>>`
    WITH f AS (
      UPDATE filings SET version = version + 1${sets.length > 0 ? Prisma.sql`, ${Prisma.join(sets, ", ")}` : Prisma.empty}
      WHERE id = ${before.id} AND version = ${before.version}::int
      RETURNING id, version)${ctes.length > 0 ? Prisma.sql`, ${Prisma.join(ctes, ", ")}` : Prisma.empty}
    SELECT version FROM f`;
  const row = rows[0];
  return row ? { ...after, version: row.version } : null;
}

/** Whether `error` is the database refusing a duplicate in the unique index (or primary key) `index` (raw statements). */
export function isUniqueViolation(error: unknown, index: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2010") return false;
  const cause = (error.meta as { driverAdapterError?: { cause?: { originalCode?: string; constraint?: { index?: string } } } } | undefined)?.driverAdapterError?.cause;
  return cause?.originalCode === "23505" && cause.constraint?.index === index;
}

/** How often a change computed from a read is computed again when the filing moved meanwhile. */
export const MAX_WRITE_ATTEMPTS = 10;

/** A filing that kept changing under a change (more than MAX_WRITE_ATTEMPTS times): retried by the caller's caller. */
export class FilingBusyError extends Error {
  override readonly name = "FilingBusyError";
  constructor(filingId: string) {
    super(`filing ${filingId} kept changing while a change was computed; try again`);
  }
}
