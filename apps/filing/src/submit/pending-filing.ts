import { AppError } from "@dormant/contracts";
import type { FilingDb } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import type { FilingRecord } from "../state/filing-record.ts";
import { dbDate } from "../db/date-columns.ts";
import {
  accountsForCt600Query,
  ct600AccountsFromRow,
  NO_ACCOUNTS_QUERY,
  type Ct600Accounts,
  type MaybeAccountsRow,
} from "./accounts-for-ct600.ts";
import { filingExistsError, findLiveFiling, LIVE_FILING_INDEX, type LiveFilingKey } from "./live-duplicate.ts";
import type { NewFiling, RegistryRequestRecord } from "./new-filing.ts";

/** Who creates the filing and under which idempotency key, and the claim its request holds. */
export interface FilingOrigin {
  accountId: string;
  keyId: string;
  idempotencyKey: string;
  fingerprint: string;
  requestId: string;
  feePence: number;
  claimToken: string;
  claimSeconds: number;
}

interface InsertedRow extends MaybeAccountsRow {
  registry_submission_number: string | null;
  registry_request: unknown;
  created_at: Date;
  updated_at: Date;
  version: number;
}

/** A filing just written, and for a CT600 the accounts its returns attach (null: none found). */
export interface CreatedFiling {
  filing: FilingRecord;
  ct600Accounts: Ct600Accounts | null;
}

/**
 * Writes a new filing as `pending`, claimed by the creating request (`claim_expires_at` set by
 * the database clock in the same INSERT), with its parts (or its registry submission and the next
 * submission number: `format_submission_number(nextval('registry_submission_number_seq'))`, never
 * reused, also when this statement fails), the first history entries and its initial documents,
 * as ONE statement (data-modifying CTEs: atomic without a transaction). A CT600 looks up, in the
 * same statement, the accounts its returns attach (accounts-for-ct600.ts): each part's stored
 * request refers to them by `accounts_filing_id`, and they are returned for the first sending.
 * Returns the filing as written, or "exists" when another request already created the filing
 * under the same API key and Idempotency-Key (the unique key is the idempotency backstop).
 * Throws 409 FILING_EXISTS when the account already has a live filing of this type, company and
 * period end (live-duplicate.ts): written before the fee is held, so a refused submit holds
 * nothing and sends nothing.
 */
export async function createPendingFiling(db: FilingDb, filing: NewFiling, origin: FilingOrigin): Promise<CreatedFiling | "exists"> {
  const cause = `submit request ${origin.requestId}`;
  const registry = filing.registry
    ? Prisma.sql`'pending'::submission_status, n.number, ${JSON.stringify(filing.registry)}::jsonb || jsonb_build_object('submission_number', n.number)`
    : Prisma.sql`NULL::submission_status, NULL::text, NULL::jsonb`;
  const number = filing.registry
    ? Prisma.sql`(SELECT format_submission_number(nextval('registry_submission_number_seq')) AS number) AS n`
    : Prisma.sql`(SELECT NULL::text AS number) AS n`;
  const accountsQuery =
    filing.filingType === "ct600" ? accountsForCt600Query(origin.accountId, filing.companyNumber, filing.period.end) : NO_ACCOUNTS_QUERY;
  const ctes: Prisma.Sql[] = [Prisma.sql`ct600_accounts AS (${accountsQuery})`];
  if (filing.parts.length > 0) {
    const rows = filing.parts.map(
      (part) =>
        Prisma.sql`(${part.partNumber}::int, ${part.period.start}::date, ${part.period.end}::date, 'pending'::submission_status, ${JSON.stringify(part.request)}::jsonb)`,
    );
    ctes.push(Prisma.sql`parts AS (
      INSERT INTO filing_parts (filing_id, part_number, period_start, period_end, tax_status, submit_request)
      SELECT filing.id, v.part_number, v.period_start, v.period_end, v.tax_status,
        v.submit_request || COALESCE((SELECT jsonb_build_object('accounts_filing_id', a.accounts_filing_id) FROM ct600_accounts a), '{}'::jsonb)
      FROM filing CROSS JOIN (VALUES ${Prisma.join(rows)}) AS v(part_number, period_start, period_end, tax_status, submit_request))`);
  }
  const history = [
    Prisma.sql`(0, NULL::int, 'status', ${cause}::text)`,
    ...filing.parts.map((part, i) => Prisma.sql`(${i + 1}::int, ${part.partNumber}::int, 'tax_status', ${cause}::text)`),
    ...(filing.registry ? [Prisma.sql`(${filing.parts.length + 1}::int, NULL::int, 'registry_status', ${cause}::text)`] : []),
  ];
  ctes.push(Prisma.sql`history AS (
    INSERT INTO status_history (filing_id, part_number, field, to_status, cause)
    SELECT filing.id, v.part_number, v.field, 'pending', v.cause FROM filing CROSS JOIN (VALUES ${Prisma.join(history)}) AS v(ord, part_number, field, cause) ORDER BY v.ord)`);
  if (filing.documents.length > 0) {
    const generatedAt = new Date().toISOString();
    const rows = filing.documents.map(
      (doc) =>
        Prisma.sql`(${doc.type}::document_type, ${doc.partNumber}::int, ${doc.mediaType}::text, ${doc.fileName}::text, ${doc.content}::bytea, ${doc.content.length}::int, ${generatedAt}::timestamptz)`,
    );
    ctes.push(Prisma.sql`docs AS (
      INSERT INTO documents (filing_id, type, part_number, media_type, file_name, content, size_bytes, generated_at)
      SELECT filing.id, v.* FROM filing CROSS JOIN (VALUES ${Prisma.join(rows)}) AS v(type, part_number, media_type, file_name, content, size_bytes, generated_at))`);
  }
  const insert = () => db.$queryRaw<InsertedRow[]>`
      WITH filing AS (
        INSERT INTO filings (id, account_id, key_id, idempotency_key, request_fingerprint, request_id, filing_type, company_number, company_name,
          period_start, period_end, period_split, status, fee_pence, derived_values, accounts_input, client_reference, claim_token, claim_expires_at,
          registry_status, registry_submission_number, registry_request)
        SELECT ${filing.id}, ${origin.accountId}, ${origin.keyId}, ${origin.idempotencyKey}, ${origin.fingerprint}, ${origin.requestId},
          ${filing.filingType}::filing_type, ${filing.companyNumber}, ${filing.companyName}, ${filing.period.start}::date, ${filing.period.end}::date,
          ${filing.periodSplit}::boolean, 'pending', ${origin.feePence}::int, ${JSON.stringify(filing.derivedValues)}::jsonb,
          ${filing.accountsInput ? JSON.stringify(filing.accountsInput) : null}::jsonb, ${filing.clientReference ?? null}::text, ${origin.claimToken},
          now() + ${origin.claimSeconds}::int * interval '1 second', ${registry}
        FROM ${number}
        RETURNING id, registry_submission_number, registry_request, created_at, updated_at, version
      ), ${Prisma.join(ctes, ", ")}
      SELECT filing.registry_submission_number, filing.registry_request, filing.created_at, filing.updated_at, filing.version, a.*
      FROM filing LEFT JOIN ct600_accounts a ON true`;
  const row = await insertUnlessLive(
    db,
    insert,
    {
      accountId: origin.accountId,
      filingType: filing.filingType,
      companyNumber: filing.companyNumber,
      periodEnd: filing.period.end,
    },
    origin,
  );
  if (row === "exists") return "exists";
  if (!row) throw new Error(`the filing ${filing.id} was not written`);
  const ct600Accounts = ct600AccountsFromRow(row);
  const record: FilingRecord = {
    id: filing.id,
    accountId: origin.accountId,
    keyId: origin.keyId,
    idempotencyKey: origin.idempotencyKey,
    requestFingerprint: origin.fingerprint,
    requestId: origin.requestId,
    filingType: filing.filingType,
    companyNumber: filing.companyNumber,
    companyName: filing.companyName,
    periodStart: dbDate(filing.period.start),
    periodEnd: dbDate(filing.period.end),
    periodSplit: filing.periodSplit,
    status: "pending",
    feePence: origin.feePence,
    derivedValues: filing.derivedValues,
    clientReference: filing.clientReference ?? null,
    acceptedLate: false,
    registryStatus: filing.registry ? "pending" : null,
    registrySubmissionNumber: row.registry_submission_number,
    registryRequest: row.registry_request as RegistryRequestRecord | null,
    registryExamination: null,
    errorCode: null,
    errorMessage: null,
    claimToken: origin.claimToken,
    submittedAt: null,
    finalizedAt: null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    parts: filing.parts.map((part) => ({
      partNumber: part.partNumber,
      periodStart: dbDate(part.period.start),
      periodEnd: dbDate(part.period.end),
      taxStatus: "pending",
      taxCorrelationId: null,
      taxIruNumber: null,
      irmark: null,
      taxReceiptMessage: null,
      taxAcceptedAt: null,
      submitRequest: ct600Accounts ? { ...part.request, accounts_filing_id: ct600Accounts.filingId } : part.request,
      submittedAt: null,
      errorCode: null,
      errorMessage: null,
      updatedAt: row.created_at,
    })),
  };
  return { filing: record, ct600Accounts };
}

/** A live filing the index refused ours for that ended or went meanwhile lets the insert be tried again, this often. */
const LIVE_CONFLICT_ATTEMPTS = 3;

/**
 * Runs the INSERT: "exists" when the Idempotency-Key's filing exists, 409 FILING_EXISTS (with the
 * live filing's id) when the account has another live filing of the same type, company and period end. Each attempt is one
 * statement; only a refusal costs the look-up.
 */
async function insertUnlessLive(
  db: FilingDb,
  insert: () => Promise<InsertedRow[]>,
  key: LiveFilingKey,
  origin: Pick<FilingOrigin, "keyId" | "idempotencyKey">,
): Promise<InsertedRow | undefined | "exists"> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await insert())[0];
    } catch (error) {
      if (isUniqueViolation(error, "filings_key_id_idempotency_key_key")) return "exists";
      if (!isUniqueViolation(error, LIVE_FILING_INDEX)) throw error;
    }
    const existing = await findLiveFiling(db, key);
    // The same request again (same key and Idempotency-Key) that the live index refused before the
    // idempotency key's: the backstop answers it, as for "exists".
    if (existing?.keyId === origin.keyId && existing.idempotencyKey === origin.idempotencyKey) return "exists";
    if (existing) throw filingExistsError(existing.id);
    if (attempt >= LIVE_CONFLICT_ATTEMPTS) throw new AppError("INTERNAL_ERROR", "The filing could not be written; retry shortly");
  }
}

/** `createPendingFiling` for callers that need only whether it was created (test seeding, crash tests). */
export async function insertPendingFiling(db: FilingDb, filing: NewFiling, origin: FilingOrigin): Promise<"created" | "exists"> {
  return (await createPendingFiling(db, filing, origin)) === "exists" ? "exists" : "created";
}
