import { z } from "zod";
import { AccountsFilingInput, AccountsSubmitResponse } from "../api/accounts-submit.ts";
import { Ct600FilingInput, Ct600SubmitResponse } from "../api/ct600-submit.ts";
import { AccountsValidationResult, Ct600ValidationResult } from "../api/validate.ts";
import { CompanyDeadlines } from "../api/deadlines.ts";
import { DocumentType, DocumentsList } from "../api/documents.ts";
import { Filing } from "../api/filing.ts";
import { FilingsList, PAGE_SIZE } from "../api/filings-list.ts";
import { IdempotencyKey } from "../api/headers.ts";
import { ClientReference, CompanyNumber, DateTime, FilingStatus, FilingType } from "../api/primitives.ts";
import { SealedSecret } from "./sealed-secret.ts";

/**
 * The gateway's live reads and writes: RPC requests to the filing service on queue `filing.rpc`
 * (replies are the bus's `RpcReply`: `{ ok: true, result }` or `{ ok: false, error }`). The
 * gateway owns no filing state; this is its whole conversation with the filing service.
 */
export const FILING_RPC_QUEUE = "filing.rpc";

/** Who asks: filings belong to the key that created them (spec section 5, rule 6). */
export const FilingRpcCaller = z.object({
  account_id: z.string().min(1).max(100),
  key_id: z.string().min(1).max(100),
  mode: z.enum(["live", "test"]),
  /** The API request this call serves; also in the bus metadata. */
  request_id: z.string().min(1).max(200),
});
export type FilingRpcCaller = z.infer<typeof FilingRpcCaller>;

/** What a sealed credentials value is bound to: the caller's account and the idempotency key. */
export function credentialsBinding(accountId: string, idempotencyKey: string): string {
  return `credentials:${accountId}:${idempotencyKey}`;
}

/** `filing.submit_ct600`: the body without credentials, which travel sealed (`Ct600Credentials`). */
export const SubmitCt600Request = z.object({
  caller: FilingRpcCaller,
  idempotency_key: IdempotencyKey,
  filing: Ct600FilingInput,
  credentials: SealedSecret,
});
export type SubmitCt600Request = z.infer<typeof SubmitCt600Request>;

/** `filing.submit_accounts`: the body without credentials, which travel sealed (`AccountsCredentials`). */
export const SubmitAccountsRequest = z.object({
  caller: FilingRpcCaller,
  idempotency_key: IdempotencyKey,
  filing: AccountsFilingInput,
  credentials: SealedSecret,
});
export type SubmitAccountsRequest = z.infer<typeof SubmitAccountsRequest>;

/** `filing.validate_ct600`: the body without credentials (they are only checked for form, at the gateway, and go no further). */
export const ValidateCt600Request = z.object({ caller: FilingRpcCaller, filing: Ct600FilingInput });
export type ValidateCt600Request = z.infer<typeof ValidateCt600Request>;

/** `filing.validate_accounts`: the body without credentials. */
export const ValidateAccountsRequest = z.object({ caller: FilingRpcCaller, filing: AccountsFilingInput });
export type ValidateAccountsRequest = z.infer<typeof ValidateAccountsRequest>;

export const GetFilingRequest = z.object({ caller: FilingRpcCaller, filing_id: z.string().min(1).max(128) });
export type GetFilingRequest = z.infer<typeof GetFilingRequest>;

/** The validated `GET /filings` query (numbers already parsed). */
export const ListFilingsCriteria = z.object({
  status: FilingStatus.optional(),
  type: FilingType.optional(),
  company_number: CompanyNumber.optional(),
  client_reference: ClientReference.optional(),
  limit: z.number().int().min(1).max(PAGE_SIZE.max),
  offset: z.number().int().min(0),
});
export type ListFilingsCriteria = z.infer<typeof ListFilingsCriteria>;

export const ListFilingsRequest = z.object({ caller: FilingRpcCaller, criteria: ListFilingsCriteria });
export type ListFilingsRequest = z.infer<typeof ListFilingsRequest>;

export const ListDocumentsRequest = z.object({ caller: FilingRpcCaller, filing_id: z.string().min(1).max(128) });
export type ListDocumentsRequest = z.infer<typeof ListDocumentsRequest>;

/**
 * Which CT600 return of a split filing a document belongs to: 1 for the first twelve months, 2
 * for the remainder. Absent means part 1 (the only one of a single-period CT600; accounts
 * documents have no parts, so only 1 or nothing finds them).
 */
export const DocumentPart = z.number().int().min(1).max(2);
export type DocumentPart = z.infer<typeof DocumentPart>;

export const GetDocumentRequest = z.object({
  caller: FilingRpcCaller,
  filing_id: z.string().min(1).max(128),
  document_type: DocumentType,
  part: DocumentPart.optional(),
});
export type GetDocumentRequest = z.infer<typeof GetDocumentRequest>;

/** A document's bytes as they cross the bus. */
export const DocumentContent = z.object({
  document_type: DocumentType,
  media_type: z.string().min(1),
  file_name: z.string().min(1),
  content_base64: z.string(),
});
export type DocumentContent = z.infer<typeof DocumentContent>;

/** The largest slice `filing.get_document_chunk` hands out (1 MiB, about 1.4 MB of base64 on the bus). */
export const DOCUMENT_CHUNK_MAX_BYTES = 1024 * 1024;

/** `filing.get_document_chunk`: `length` bytes of a document from `offset` (fewer at its end). */
export const GetDocumentChunkRequest = GetDocumentRequest.extend({
  offset: z.number().int().min(0),
  length: z.number().int().min(1).max(DOCUMENT_CHUNK_MAX_BYTES),
});
export type GetDocumentChunkRequest = z.infer<typeof GetDocumentChunkRequest>;

/**
 * One slice of a document and what a download needs before its first byte: media type, file
 * name and total size. Documents never change once stored; `generated_at` identifies the stored
 * version, so a reader assembling slices can tell that they all come from the same one.
 */
export const DocumentChunk = z.object({
  document_type: DocumentType,
  media_type: z.string().min(1),
  file_name: z.string().min(1),
  total_bytes: z.number().int().min(0),
  generated_at: DateTime,
  offset: z.number().int().min(0),
  content_base64: z.string(),
});
export type DocumentChunk = z.infer<typeof DocumentChunk>;

/** `filing.deadlines`: a company's deadlines from the registry, with the caller's own filings for them. */
export const CompanyDeadlinesRequest = z.object({ caller: FilingRpcCaller, company_number: CompanyNumber });
export type CompanyDeadlinesRequest = z.infer<typeof CompanyDeadlinesRequest>;

/**
 * The filing RPCs, in the shape of the bus's RPC catalog (type -> queue, request, response,
 * schema version, default timeout): the gateway calls them, the filing service serves them.
 * Submits may wait for the registry and an authority's first answer; reads are quick.
 */
export const FILING_RPC_CATALOG = {
  "filing.submit_ct600": {
    queue: FILING_RPC_QUEUE,
    request: SubmitCt600Request,
    response: Ct600SubmitResponse,
    schemaVersion: 1,
    timeoutMs: 30_000,
  },
  "filing.submit_accounts": {
    queue: FILING_RPC_QUEUE,
    request: SubmitAccountsRequest,
    response: AccountsSubmitResponse,
    schemaVersion: 1,
    timeoutMs: 30_000,
  },
  // Validation derives like a submit and has each return built and checked by the tax submitter.
  "filing.validate_ct600": {
    queue: FILING_RPC_QUEUE,
    request: ValidateCt600Request,
    response: Ct600ValidationResult,
    schemaVersion: 1,
    timeoutMs: 30_000,
  },
  "filing.validate_accounts": {
    queue: FILING_RPC_QUEUE,
    request: ValidateAccountsRequest,
    response: AccountsValidationResult,
    schemaVersion: 1,
    timeoutMs: 30_000,
  },
  "filing.get": { queue: FILING_RPC_QUEUE, request: GetFilingRequest, response: Filing, schemaVersion: 1, timeoutMs: 5_000 },
  "filing.list": { queue: FILING_RPC_QUEUE, request: ListFilingsRequest, response: FilingsList, schemaVersion: 1, timeoutMs: 5_000 },
  "filing.list_documents": {
    queue: FILING_RPC_QUEUE,
    request: ListDocumentsRequest,
    response: DocumentsList,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "filing.get_document": {
    queue: FILING_RPC_QUEUE,
    request: GetDocumentRequest,
    response: DocumentContent,
    schemaVersion: 1,
    timeoutMs: 10_000,
  },
  "filing.get_document_chunk": {
    queue: FILING_RPC_QUEUE,
    request: GetDocumentChunkRequest,
    response: DocumentChunk,
    schemaVersion: 1,
    timeoutMs: 10_000,
  },
  "filing.deadlines": {
    queue: FILING_RPC_QUEUE,
    request: CompanyDeadlinesRequest,
    response: CompanyDeadlines,
    schemaVersion: 1,
    // The registry may be asked (its client times out after 5 s by default).
    timeoutMs: 10_000,
  },
} as const;
export type FilingRpcType = keyof typeof FILING_RPC_CATALOG;

/**
 * `filing.list_final`: the filings that reached a final status, for billing's reconcile to check
 * its ledger against the filing service's own record (apps/billing README "Reconcile"). Not a
 * gateway call, so it has a catalog of its own, on the same queue (`filing.rpc`).
 *
 * Filings are those whose `finalized_at` is in `[since, until)`, in the order of
 * (`finalized_at`, `filing_id`), the ids compared byte by byte (they are ASCII), after the
 * position `after` when given: keyset pagination, so that a walk over months of filings costs
 * one indexed range read per page and sees every filing once, even while new ones are finalized.
 */
export const LIST_FINAL_PAGE = { default: 1000, max: 1000 } as const;

const FinalFilingId = z.string().regex(/^fil_[A-Za-z0-9_-]{1,64}$/);

/** A position in the order of final filings: the last filing of a page. */
export const FinalFilingsCursor = z.object({ finalized_at: DateTime, filing_id: FinalFilingId });
export type FinalFilingsCursor = z.infer<typeof FinalFilingsCursor>;

export const ListFinalFilingsRequest = z
  .object({
    since: DateTime,
    until: DateTime,
    after: FinalFilingsCursor.optional(),
    limit: z.number().int().min(1).max(LIST_FINAL_PAGE.max).default(LIST_FINAL_PAGE.default),
  })
  .refine((request) => Date.parse(request.since) < Date.parse(request.until), { message: "since must be before until", path: ["until"] });
export type ListFinalFilingsRequest = z.infer<typeof ListFinalFilingsRequest>;

const FinalFilingBase = z.object({ filing_id: FinalFilingId, account_id: z.string().min(1), finalized_at: DateTime });

/** A filing as it ended: accepted ones carry the fee due (what billing must have captured), the others none. */
export const FinalFiling = z.discriminatedUnion("status", [
  FinalFilingBase.extend({ status: z.literal("accepted"), fee_pence: z.number().int().positive() }),
  FinalFilingBase.extend({ status: z.enum(["rejected", "error"]) }),
]);
export type FinalFiling = z.infer<typeof FinalFiling>;

/** One page; `next` (the last filing's position) is present when more filings follow in the window. */
export const ListFinalFilingsResponse = z.object({
  filings: z.array(FinalFiling).max(LIST_FINAL_PAGE.max),
  next: FinalFilingsCursor.optional(),
});
export type ListFinalFilingsResponse = z.infer<typeof ListFinalFilingsResponse>;

/** Served by the filing service on `filing.rpc`; called by billing's reconcile (admin CLI). */
export const FILING_RECONCILE_RPC_CATALOG = {
  "filing.list_final": {
    queue: FILING_RPC_QUEUE,
    request: ListFinalFilingsRequest,
    response: ListFinalFilingsResponse,
    schemaVersion: 1,
    timeoutMs: 15_000,
  },
} as const;
