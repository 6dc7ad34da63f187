import { z } from "zod";
import { DocumentsList } from "../api/documents.ts";
import { Filing } from "../api/filing.ts";
import { FilingsList } from "../api/filings-list.ts";
import { DateTime } from "../api/primitives.ts";
import { DocumentChunk, FILING_RPC_QUEUE, GetDocumentChunkRequest, ListFilingsCriteria } from "./filing-rpc.ts";

/**
 * The account dashboard's reads of the filing service (apps/dashboard), on `filing.rpc`: the
 * whole account's live filings, whichever of its keys made them. The public API never calls
 * these (its filings belong to the key that created them, spec section 5 rule 6); the gateway's
 * own catalog (`FILING_RPC_CATALOG`) has no account-wide read. Another account's filing is
 * FILING_NOT_FOUND, exactly as an unknown one.
 */
export const FilingAccountReader = z.object({
  account_id: z.string().min(1).max(100),
  /** The dashboard request this call serves (logged by the filing service). */
  request_id: z.string().min(1).max(200),
});
export type FilingAccountReader = z.infer<typeof FilingAccountReader>;

/** `filing.account_list`: the account's live filings, newest first, with the public list's filters and paging. */
export const AccountListFilingsRequest = z.object({ reader: FilingAccountReader, criteria: ListFilingsCriteria });
export type AccountListFilingsRequest = z.infer<typeof AccountListFilingsRequest>;

/** `filing.account_get` and `filing.account_list_documents`: one of the account's filings. */
export const AccountFilingRequest = z.object({ reader: FilingAccountReader, filing_id: z.string().min(1).max(128) });
export type AccountFilingRequest = z.infer<typeof AccountFilingRequest>;

/** `filing.account_get_document_chunk`: a slice of one of the account's documents (as `filing.get_document_chunk`). */
export const AccountDocumentChunkRequest = GetDocumentChunkRequest.omit({ caller: true }).extend({ reader: FilingAccountReader });
export type AccountDocumentChunkRequest = z.infer<typeof AccountDocumentChunkRequest>;

/**
 * One change of a filing's status as the filing service recorded it: the filing's own `status`,
 * a CT600 part's `tax_status` (with its part number), the registry's `registry_status`, or the
 * registry's undecided `registry_status_code` (PENDING, PARKED).
 */
export const FilingStatusChange = z.object({
  field: z.enum(["status", "tax_status", "registry_status", "registry_status_code"]),
  /** 1 or 2 for a CT600 part's tax_status; absent otherwise. */
  part_number: z.number().int().min(1).max(2).optional(),
  from_status: z.string().nullable(),
  to_status: z.string(),
  occurred_at: DateTime,
});
export type FilingStatusChange = z.infer<typeof FilingStatusChange>;

/** `filing.account_history`: every status change of one of the account's filings, oldest first. */
export const FilingStatusHistory = z.object({ filing_id: z.string(), changes: z.array(FilingStatusChange) });
export type FilingStatusHistory = z.infer<typeof FilingStatusHistory>;

export const FILING_ACCOUNT_RPC_CATALOG = {
  "filing.account_list": {
    queue: FILING_RPC_QUEUE,
    request: AccountListFilingsRequest,
    response: FilingsList,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "filing.account_get": { queue: FILING_RPC_QUEUE, request: AccountFilingRequest, response: Filing, schemaVersion: 1, timeoutMs: 5_000 },
  "filing.account_history": {
    queue: FILING_RPC_QUEUE,
    request: AccountFilingRequest,
    response: FilingStatusHistory,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "filing.account_list_documents": {
    queue: FILING_RPC_QUEUE,
    request: AccountFilingRequest,
    response: DocumentsList,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "filing.account_get_document_chunk": {
    queue: FILING_RPC_QUEUE,
    request: AccountDocumentChunkRequest,
    response: DocumentChunk,
    schemaVersion: 1,
    timeoutMs: 10_000,
  },
} as const;
export type FilingAccountRpcType = keyof typeof FILING_ACCOUNT_RPC_CATALOG;
