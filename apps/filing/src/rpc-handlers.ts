import type { RpcHandlerMap } from "@dormant/bus";
import { AppError } from "@dormant/contracts";
import type { FILING_SERVICE_RPC } from "./bus-catalog.ts";
import type { SubmitDeps } from "./submit/submit-deps.ts";
import type { FilingMetrics } from "./metrics.ts";
import type { DocumentDeps } from "./documents/document-deps.ts";
import { getDocument, getDocumentChunk, listDocuments } from "./documents/document-reads.ts";
import { filingHistory } from "./reads/filing-history.ts";
import { getFiling, listFilings } from "./reads/filing-reads.ts";
import { accountScope, keyScope } from "./state/filing-scope.ts";
import { companyDeadlines } from "./reads/company-deadlines.ts";
import { listFinalFilings } from "./reads/final-filings.ts";
import { submitAccounts } from "./submit/submit-accounts.ts";
import { submitCt600 } from "./submit/submit-ct600.ts";
import { sandboxRegistry } from "./registry-data/sandbox-registry.ts";
import { validateAccounts } from "./validate/validate-accounts.ts";
import { validateCt600 } from "./validate/validate-ct600.ts";

/** Counts a submit by the code it ended with ("ok" for a 202). */
async function counted<T>(metrics: FilingMetrics, type: "ct600" | "accounts", work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    metrics.submits.inc({ type, result: "ok" });
    return result;
  } catch (error) {
    metrics.submits.inc({ type, result: error instanceof AppError ? error.code : "INTERNAL_ERROR" });
    throw error;
  }
}

/** Counts a validation by its verdict (or the code it failed with). */
async function countedValidation<T extends { valid: boolean }>(
  metrics: FilingMetrics,
  labels: { type: "ct600" | "accounts"; mode: "live" | "test" },
  work: () => Promise<T>,
): Promise<T> {
  try {
    const result = await work();
    metrics.validations.inc({ ...labels, result: result.valid ? "valid" : "invalid" });
    return result;
  } catch (error) {
    metrics.validations.inc({ ...labels, result: error instanceof AppError ? error.code : "INTERNAL_ERROR" });
    throw error;
  }
}

/**
 * The filing.rpc server: each RPC is a call to its service function (reads, submits, documents,
 * reconcile). The gateway's reads see the calling key's filings (keyScope), the dashboard's
 * `filing.account_*` reads the whole account's (accountScope), through the same functions.
 */
export function filingRpcHandlers(
  deps: SubmitDeps,
  documents: DocumentDeps,
  metrics: FilingMetrics,
): RpcHandlerMap<typeof FILING_SERVICE_RPC, "filing.rpc"> {
  const validating = { ...deps, sandboxRegistry: sandboxRegistry(deps.now) };
  return {
    "filing.submit_ct600": (request) => counted(metrics, "ct600", () => submitCt600(deps, request)),
    "filing.submit_accounts": (request) => counted(metrics, "accounts", () => submitAccounts(deps, request)),
    "filing.validate_ct600": (request) =>
      countedValidation(metrics, { type: "ct600", mode: request.caller.mode }, () => validateCt600(validating, request)),
    "filing.validate_accounts": (request) =>
      countedValidation(metrics, { type: "accounts", mode: request.caller.mode }, () => validateAccounts(validating, request)),
    "filing.get": (request) => getFiling(deps.db, keyScope(request.caller), request.filing_id),
    "filing.list": (request) => listFilings(deps.db, keyScope(request.caller), request.criteria),
    "filing.list_documents": (request) => listDocuments(documents, keyScope(request.caller), request.filing_id),
    "filing.get_document": (request) => getDocument(documents, keyScope(request.caller), request),
    "filing.get_document_chunk": (request) => getDocumentChunk(documents, keyScope(request.caller), request),
    "filing.account_get": (request) => getFiling(deps.db, accountScope(request.reader), request.filing_id),
    "filing.account_history": (request) => filingHistory(deps.db, accountScope(request.reader), request.filing_id),
    "filing.account_list": (request) => listFilings(deps.db, accountScope(request.reader), request.criteria),
    "filing.account_list_documents": (request) => listDocuments(documents, accountScope(request.reader), request.filing_id),
    "filing.account_get_document_chunk": (request) => getDocumentChunk(documents, accountScope(request.reader), request),
    "filing.deadlines": (request) => companyDeadlines(deps, request),
    "filing.list_final": (request) => listFinalFilings(deps.db, request),
  };
}
