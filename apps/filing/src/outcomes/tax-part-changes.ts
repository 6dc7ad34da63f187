import type { TaxPartOutcome, TaxPartPolling, TaxPartSubmission } from "@dormant/contracts";
import { submissionMayMove, type SubmissionStatus } from "../state/filing-state.ts";
import { fillTaxPartSubmission } from "../state/submission-record.ts";
import { partOf, recordHistory, type Cause, type Change } from "../state/transitions.ts";
import type { OutcomeChange } from "./apply-outcome.ts";

type PartFields = { taxIruNumber?: string; taxReceiptMessage?: string; taxAcceptedAt?: Date; errorCode?: string; errorMessage?: string };

/**
 * Moves one CT600 part's tax_status when the state machine allows it and the message is about
 * that part's submission (its correlation id, when the part has one). Fills in the correlation id
 * when the outcome overtook the record of the submit (the rest of that record: fillRecord).
 */
function movePart(
  change: Change,
  message: { part_number: number; correlation_id: string },
  to: SubmissionStatus,
  cause: Cause,
  fields: PartFields = {},
): boolean {
  const part = partOf(change, message.part_number);
  if (!part) return false;
  if (part.taxCorrelationId !== null && part.taxCorrelationId !== message.correlation_id) return false;
  if (!submissionMayMove(part.taxStatus, to)) return false;
  const detail = fields.errorCode ? ` (${fields.errorCode})` : "";
  recordHistory(change, { partNumber: part.partNumber, field: "tax_status", from: part.taxStatus, to, cause: `${cause.text}${detail}` });
  // A late acceptance replaces our own error: the part's error no longer stands.
  const cleared = to === "accepted" ? { errorCode: null, errorMessage: null } : {};
  Object.assign(part, { taxStatus: to, taxCorrelationId: message.correlation_id, updatedAt: change.now }, cleared, fields);
  return true;
}

/**
 * Fills in the part's record of its submit from the message (when the message is about this
 * part's submission and brings one), whether or not its status moves: the record travels on
 * every polling and outcome message, so an acknowledgement whose answer was lost on its way here
 * still lands, and a redelivered message completes a part an older message moved without it.
 */
function fillRecord(change: Change, message: { part_number: number; correlation_id: string; submission?: TaxPartSubmission }): boolean {
  const part = partOf(change, message.part_number);
  if (!part || !message.submission) return false;
  if (part.taxCorrelationId !== null && part.taxCorrelationId !== message.correlation_id) return false;
  return fillTaxPartSubmission(change, message.part_number, message.submission);
}

/** `tax.part_polling`: the first poll found no answer yet. */
export function applyTaxPolling(payload: TaxPartPolling): OutcomeChange {
  return (change, cause) => {
    const moved = movePart(change, payload, "polling", cause);
    return fillRecord(change, payload) || moved;
  };
}

/**
 * `tax.part_outcome`: accepted (the receipt's IRmark is the part's tax_iru_number; the receipt's
 * message and acceptance time are kept for its ct600_pdf), rejected or error. The record of the
 * submit it carries is filled in where the part lacks it (before the filing is settled, so a
 * filing accepted by this message has its IRmark when its documents are rendered).
 */
export function applyTaxOutcome(payload: TaxPartOutcome): OutcomeChange {
  return (change, cause) => {
    const moved =
      payload.outcome === "accepted"
        ? movePart(change, payload, "accepted", cause, {
            taxIruNumber: payload.receipt_irmark_base32,
            taxReceiptMessage: payload.receipt_message,
            taxAcceptedAt: new Date(payload.accepted_time),
          })
        : movePart(change, payload, payload.outcome, cause, { errorCode: payload.error.code, errorMessage: payload.error.message });
    return fillRecord(change, payload) || moved;
  };
}
