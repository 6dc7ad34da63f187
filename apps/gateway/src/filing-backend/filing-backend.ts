import type {
  AccountsValidationResult,
  Ct600ValidationResult,
  AccountsSubmitRequest,
  AccountsSubmitResponse,
  CompanyDeadlines,
  Ct600SubmitRequest,
  Ct600SubmitResponse,
  DocumentsList,
  DocumentType,
  Filing,
  FilingsList,
  ListFilingsCriteria,
  SandboxDocumentsList,
  SandboxFiling,
  SandboxFilingsList,
  SandboxSubmitResponse,
} from "@dormant/contracts";

/** Who is asking, as the routes know it after authentication. */
export interface FilingCaller {
  accountId: string;
  keyId: string;
  mode: "live" | "test";
  requestId: string;
}

export interface SubmitInput<B> {
  idempotencyKey: string;
  body: B;
}

/** A document on its way to the caller: what the response headers need, then its bytes in order. */
export interface DocumentDownload {
  mediaType: string;
  fileName: string;
  /** The whole document's size (Content-Length). */
  sizeBytes: number;
  /** The bytes, slice after slice, fetched as they are read; a failure part-way throws from the iterator. */
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>;
}

/**
 * Everything the routes ask about filings. Two implementations: the live one over the bus (the
 * filing service owns every filing) and the sandbox (stateless, answers from the id itself).
 * Failures are AppErrors (FILING_NOT_FOUND, FILING_NOT_COMPLETE, DOCUMENT_NOT_FOUND,
 * SERVICE_UNAVAILABLE, ...), which the error handler renders.
 */
export interface FilingBackend {
  submitCt600(caller: FilingCaller, input: SubmitInput<Ct600SubmitRequest>): Promise<Ct600SubmitResponse | SandboxSubmitResponse>;
  submitAccounts(caller: FilingCaller, input: SubmitInput<AccountsSubmitRequest>): Promise<AccountsSubmitResponse | SandboxSubmitResponse>;
  /**
   * Validate-only: everything a submit runs before money or an authority, on a body that passed
   * the contract (its credentials go nowhere); nothing stored, held or sent.
   */
  validateCt600(caller: FilingCaller, body: Ct600SubmitRequest): Promise<Ct600ValidationResult>;
  validateAccounts(caller: FilingCaller, body: AccountsSubmitRequest): Promise<AccountsValidationResult>;
  getFiling(caller: FilingCaller, filingId: string): Promise<Filing | SandboxFiling>;
  listFilings(caller: FilingCaller, criteria: ListFilingsCriteria): Promise<FilingsList | SandboxFilingsList>;
  listDocuments(caller: FilingCaller, filingId: string): Promise<DocumentsList | SandboxDocumentsList>;
  /**
   * Opens a download: refusals (FILING_NOT_FOUND, FILING_NOT_COMPLETE, DOCUMENT_NOT_FOUND, ...)
   * come from this call, before any byte; `part` picks a return of a split CT600 (default 1).
   */
  openDocument(caller: FilingCaller, filingId: string, type: DocumentType, part: number | undefined): Promise<DocumentDownload>;
  /** The company's deadlines with the caller's own filings for them (live), or the sandbox's derived ones. */
  getCompanyDeadlines(caller: FilingCaller, companyNumber: string): Promise<CompanyDeadlines>;
}

/** One backend per key mode: test keys never reach the live one, and the reverse. */
export type FilingBackends = Record<FilingCaller["mode"], FilingBackend>;
