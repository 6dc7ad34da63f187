import type { DormantAccountsInput } from "../ixbrl/dormant-accounts-input.ts";

/** What every PDF takes besides its content. */
export interface PdfDocumentOptions {
  /**
   * When the document is generated: an ISO 8601 date-time with a UTC offset, such as
   * `2026-09-29T10:15:00Z`. It is the PDF's CreationDate and is printed in the footer, so the
   * same input always gives the same bytes.
   */
  readonly generatedAt: string;
  /** Marks every page "SANDBOX — NOT FILED" (nothing was sent to an authority). Default false. */
  readonly sandbox?: boolean;
}

/** `ReturnType` of the CT600: an original return or an amendment of one already filed. */
export type Ct600ReturnType = "new" | "amended";

/** Where this return sits when an accounting period longer than 12 months was filed as two returns. */
export interface Ct600ReturnPart {
  /** 1 for the first twelve months, 2 for the remainder. */
  readonly number: number;
  /** How many returns the period was split into (2). */
  readonly of: number;
}

/** What the tax authority answered once it accepted the return; every field is optional. */
export interface Ct600Receipt {
  /** `CorrelationID` of the submission, e.g. `8A2C0F5E9B1D4E7A9C3B5D7F1E2A4C6B`. */
  readonly correlationId?: string;
  /**
   * `AcceptedTime` of the `SuccessResponse` as the authority states it, e.g.
   * `2026-09-29T00:33:06.257` (no offset: UK time) or with `Z` / `+01:00`.
   */
  readonly acceptedAt?: string;
  /** Text of the `IRmarkReceipt` message (code 0000) quoting the IRmark in base32. */
  readonly message?: string;
}

/** A nil CT600 for a dormant company as filed, for the agent's and the client's records. */
export interface Ct600PdfInput extends PdfDocumentOptions {
  readonly companyName: string;
  /** Registry company number, e.g. `00000001` or `SC000001`. */
  readonly companyNumber: string;
  /** 10-digit Unique Taxpayer Reference. */
  readonly utr: string;
  /** `PeriodCovered/From`, `YYYY-MM-DD`. */
  readonly periodStart: string;
  /** `PeriodCovered/To`, `YYYY-MM-DD`. */
  readonly periodEnd: string;
  /** Default `new`. */
  readonly returnType?: Ct600ReturnType;
  /** `Declaration/Name`. */
  readonly declarantName: string;
  /** `Declaration/Status`, the declarant's capacity such as `Director`. */
  readonly declarantStatus: string;
  /** The IRmark carried in the return: base64 of a SHA-1 digest (28 characters). */
  readonly irmark: string;
  /** Present only when the accounting period was split into several returns. */
  readonly part?: Ct600ReturnPart;
  /** Absent until the authority has accepted the return. */
  readonly receipt?: Ct600Receipt;
}

/**
 * The human-readable dormant accounts take exactly the iXBRL renderer's input, so both documents
 * come from one set of facts, plus the PDF options.
 */
export type DormantAccountsPdfInput = DormantAccountsInput & PdfDocumentOptions;
