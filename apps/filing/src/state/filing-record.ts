import type { FilingStatus } from "@dormant/contracts";
import type { Filing, FilingPart } from "../generated/prisma/client.ts";
import type { SubmissionStatus } from "./filing-state.ts";

/**
 * A filing as the service works on it in memory: the `filings` row (without the accounts facts,
 * which only the documents read) and its CT600 parts, at the version it was read or written at.
 * The fields are the Prisma model's (prisma/schema.prisma), so a column is declared there and
 * its type comes from the generated client; statuses are the contract's, JSON is `unknown`.
 *
 * Every change of a filing is computed in memory from such a record (src/state/transitions.ts)
 * and written back by `writeFiling` (write-filing.ts) as ONE statement: the filing's UPDATE
 * checks that its version is still the one the change was computed from (and bumps it), and the
 * parts' updates, the history rows, the documents, the outbox event and the inbox row of the
 * change are data-modifying CTEs that join that UPDATE (change-ctes.ts), so they happen if and
 * only if it did. A change computed from a stale read changes nothing and is computed again from
 * a fresh read: the version check does what a row lock held over several statements did before,
 * without the round trips (BEGIN, SELECT … FOR UPDATE, the reads, one statement per row, COMMIT).
 *
 * Every UPDATE of `filings` bumps `version`, claims included, so a record also tells whether
 * the claim it shows is still current.
 */
export interface FilingRecord extends Omit<Filing, OwnTyped | NotInRecord | RegistryExaminationColumn> {
  status: FilingStatus;
  registryStatus: SubmissionStatus | null;
  derivedValues: unknown;
  /** The registry.submit_accounts request without credentials and iXBRL. */
  registryRequest: unknown;
  /** Accounts the registry holds undecided (PENDING, PARKED), as last reported; null before (src/outcomes/registry-changes.ts). */
  registryExamination?: RegistryExaminationRecord | null;
  /** CT600 parts by part number (none for accounts). */
  parts: PartRecord[];
}

/** One CT600 return of a filing (`filing_parts`), as the Prisma model has it. */
export interface PartRecord extends Omit<FilingPart, "filingId" | "taxStatus" | "submitRequest"> {
  taxStatus: SubmissionStatus;
  /** The tax.submit_part request without its credentials. */
  submitRequest: unknown;
}

/** The registry's undecided status of accounts: its code, since when, the examiner's comment. */
export interface RegistryExaminationRecord {
  statusCode: string;
  since: Date;
  examinerComment: string | null;
}

/** Columns the record types more closely than the Prisma model (statuses, JSON). */
type OwnTyped = "status" | "registryStatus" | "derivedValues" | "registryRequest";
/**
 * Columns a record does not carry: the accounts facts (documents only), the claim's expiry, the
 * sweeper's `resolve_after` and `documents_ready_at` (documents/documents-ready.ts alone).
 */
type NotInRecord = "accountsInput" | "claimExpiresAt" | "resolveAfter" | "documentsReadyAt";
/** The three columns of `registryExamination`. */
export type RegistryExaminationColumn = "registryStatusCode" | "registryStatusSince" | "registryExaminerComment";
