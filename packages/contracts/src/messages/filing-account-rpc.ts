import { z } from "zod";
import { DocumentsList } from "../api/documents.ts";
import { Filing } from "../api/filing.ts";
import { FilingsList } from "../api/filings-list.ts";
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

export const FILING_ACCOUNT_RPC_CATALOG = {
  "filing.account_list": {
    queue: FILING_RPC_QUEUE,
    request: AccountListFilingsRequest,
    response: FilingsList,
    schemaVersion: 1,
    timeoutMs: 5_000,
  },
  "filing.account_get": { queue: FILING_RPC_QUEUE, request: AccountFilingRequest, response: Filing, schemaVersion: 1, timeoutMs: 5_000 },
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
