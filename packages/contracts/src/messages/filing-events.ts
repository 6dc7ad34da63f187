import { z } from "zod";
import { DocumentType } from "../api/documents.ts";
import { Filing } from "../api/filing.ts";
import { FilingError } from "../api/filing-error.ts";
import { ClientReference, CompanyNumber, DateTime, FilingType } from "../api/primitives.ts";

/**
 * Facts the filing service publishes (through its outbox) on the `filing.events` topic exchange
 * when a filing reaches a final status. Billing captures or releases the fee hold; documents are
 * rendered on acceptance. One of the three is published when a filing first ends; the only second
 * event a filing can have is a late `filing.accepted` correcting an `error` (see `corrects`).
 */
export const FILING_EVENTS_EXCHANGE = "filing.events";

const FilingFinal = z.object({
  filing_id: z.string().regex(/^fil_[A-Za-z0-9_-]{1,64}$/),
  account_id: z.string().min(1),
  filing_type: FilingType,
  company_number: CompanyNumber,
  /** The submit's `client_reference`, when it had one (optional: events written before it existed parse). */
  client_reference: ClientReference.optional(),
  occurred_at: DateTime,
  /**
   * The filing as `GET /filings/{filing_id}` shows it once this event is true (what a webhook
   * sends as its `data`). Optional: events written before it existed parse.
   */
  filing: Filing.optional(),
});

/**
 * What a late acceptance corrects: the filing had ended `error` (and `filing.errored` was
 * published) before the authority's acceptance arrived. A `rejected` filing never becomes
 * accepted, so `error` is the only value.
 */
export const FilingCorrection = z.enum(["error"]);
export type FilingCorrection = z.infer<typeof FilingCorrection>;

/**
 * `filing.accepted`: the authority accepted every part; the fee is due. `occurred_at` is the
 * filing's `finalized_at` (for a late acceptance, the new one). `corrects: "error"` marks a late
 * acceptance of a filing that had ended `error`: billing charges it even though the hold was
 * released, exactly once, and reconcile lists it as a correction. Absent on ordinary acceptances.
 */
export const FilingAccepted = FilingFinal.extend({
  fee_pence: z.number().int().positive(),
  corrects: FilingCorrection.optional(),
});
export type FilingAccepted = z.infer<typeof FilingAccepted>;

/** `filing.rejected`: the authority rejected it (or a part of it); nothing is due. */
export const FilingRejected = FilingFinal.extend({ error: FilingError });
export type FilingRejected = z.infer<typeof FilingRejected>;

/** `filing.errored`: the filing could not be completed; nothing is due. */
export const FilingErrored = FilingFinal.extend({ error: FilingError });
export type FilingErrored = z.infer<typeof FilingErrored>;

/**
 * `filing.documents_ready`: an accepted filing's documents are stored and can be downloaded
 * (published once, by the documents consumer, with the documents it stored).
 */
export const FilingDocumentsReady = FilingFinal.extend({
  documents: z.array(z.object({ type: DocumentType, part_number: z.number().int().min(1).max(2).optional() })).min(1),
});
export type FilingDocumentsReady = z.infer<typeof FilingDocumentsReady>;
