import { classifyWithTable, type GovTalkErrorClassification, type GovTalkErrorKind } from "../envelope/classify.ts";
import type { GovTalkError } from "../envelope/govtalk-error.ts";

/** Tax transaction engine error numbers and what they mean for a worker. */
export const TAX_ERROR_KINDS: Readonly<Record<number, GovTalkErrorKind>> = {
  1000: "transient", // system failure: resubmit later
  1001: "schema", // the message failed schema validation
  1002: "authentication", // credentials not allowed for this service
  1020: "protocol", // a CorrelationID on a submission
  1046: "authentication", // authentication failure
  1047: "authentication", // MD5 authentication withdrawn for CT
  2000: "protocol", // CorrelationID unknown (on delete: already gone)
  2001: "protocol", // message too large
  2005: "transient", // submission could not be processed: resubmit later
  2021: "protocol", // IRmark incorrect
  2022: "protocol", // IRmark missing
  3000: "transient", // internal processing failure
  3001: "business", // business validation errors (9xxx rules in Body/ErrorResponse)
  3304: "business", // original return already received for this period
};

/**
 * Classifies the `GovTalkErrors` of a tax answer for a worker deciding retry vs. fail. Known
 * numbers come from TAX_ERROR_KINDS; others by Type (recoverable = transient, business =
 * business, else protocol). Warnings count only when nothing else is reported.
 */
export function classifyGovTalkErrors(errors: readonly GovTalkError[]): GovTalkErrorClassification {
  return classifyWithTable(errors, TAX_ERROR_KINDS);
}
