import { z } from "zod";
import { FilingError } from "../api/filing-error.ts";
import { CompanyNumber, DateTime, FilingType } from "../api/primitives.ts";

/**
 * Facts the filing service publishes (through its outbox) on the `filing.events` topic exchange
 * when a filing reaches a final status. Billing captures or releases the fee hold; documents are
 * rendered on acceptance. Exactly one of the three is ever published per filing.
 */
export const FILING_EVENTS_EXCHANGE = "filing.events";

const FilingFinal = z.object({
  filing_id: z.string().regex(/^fil_[A-Za-z0-9_-]{1,64}$/),
  account_id: z.string().min(1),
  filing_type: FilingType,
  company_number: CompanyNumber,
  occurred_at: DateTime,
});

/** `filing.accepted`: the authority accepted every part; the fee is due. */
export const FilingAccepted = FilingFinal.extend({ fee_pence: z.number().int().positive() });
export type FilingAccepted = z.infer<typeof FilingAccepted>;

/** `filing.rejected`: the authority rejected it (or a part of it); nothing is due. */
export const FilingRejected = FilingFinal.extend({ error: FilingError });
export type FilingRejected = z.infer<typeof FilingRejected>;

/** `filing.errored`: the filing could not be completed; nothing is due. */
export const FilingErrored = FilingFinal.extend({ error: FilingError });
export type FilingErrored = z.infer<typeof FilingErrored>;
