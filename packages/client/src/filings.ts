import { dataOf, type Http } from "./http.ts";
import { idempotencyKeyFor } from "./idempotency.ts";
import type {
  AccountsSubmitRequest,
  AccountsSubmitResult,
  AccountsValidationResult,
  Ct600SubmitRequest,
  Ct600SubmitResult,
  Ct600ValidationResult,
  FilingsPage,
  FilingView,
  ListFilingsQuery,
} from "./types.ts";
import { type WaitForFinalOptions, waitForFinal } from "./wait-for-final.ts";

export interface SubmitOptions {
  /** Sent as `Idempotency-Key` (at most 64 characters); a random UUID when not given. */
  idempotencyKey?: string;
}

export class FilingsApi {
  constructor(private readonly http: Http) {}

  /** POST /filings/ct600: a nil CT600 (202; a sandbox filing with a test key). */
  submitCt600(body: Ct600SubmitRequest, options: SubmitOptions = {}): Promise<Ct600SubmitResult> {
    const key = idempotencyKeyFor(options.idempotencyKey);
    return dataOf(this.http.POST("/filings/ct600", { body, params: { header: { "Idempotency-Key": key } } }), key);
  }

  /** POST /filings/accounts: dormant accounts (202; a sandbox filing with a test key). */
  submitAccounts(body: AccountsSubmitRequest, options: SubmitOptions = {}): Promise<AccountsSubmitResult> {
    const key = idempotencyKeyFor(options.idempotencyKey);
    return dataOf(this.http.POST("/filings/accounts", { body, params: { header: { "Idempotency-Key": key } } }), key);
  }

  /**
   * POST /filings/ct600/validate: everything the CT600 submit checks (contract, derivation, business
   * rules, period split, HMRC's schema and business rules per return), nothing filed, stored or
   * charged. Always the report (200), valid or not; no Idempotency-Key, retried like a read.
   */
  validateCt600(body: Ct600SubmitRequest): Promise<Ct600ValidationResult> {
    return dataOf(this.http.POST("/filings/ct600/validate", { body }));
  }

  /**
   * POST /filings/accounts/validate: everything the accounts submit checks (contract, derivation,
   * business rules, the iXBRL's mandatory facts), nothing filed, stored or charged. Always the
   * report (200), valid or not; no Idempotency-Key, retried like a read.
   */
  validateAccounts(body: AccountsSubmitRequest): Promise<AccountsValidationResult> {
    return dataOf(this.http.POST("/filings/accounts/validate", { body }));
  }

  /** GET /filings/{filing_id}. */
  get(filingId: string): Promise<FilingView> {
    return dataOf(this.http.GET("/filings/{filing_id}", { params: { path: { filing_id: filingId } } }));
  }

  /** GET /filings: newest first, filtered by status, type and company number, paged by limit and offset. */
  list(query: ListFilingsQuery = {}): Promise<FilingsPage> {
    return dataOf(this.http.GET("/filings", { params: { query } }));
  }

  /** Polls the filing until it is accepted, rejected or error (see WaitForFinalOptions). */
  waitForFinal(filingId: string, options: WaitForFinalOptions = {}): Promise<FilingView> {
    return waitForFinal((id) => this.get(id), filingId, options);
  }
}
