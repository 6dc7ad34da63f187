import type { TaxPartOutcome, TaxPartPolling } from "@dormant/contracts";
import { submissionMayMove, type SubmissionStatus } from "../state/filing-state.ts";
import { recordHistory, type Cause, type LockedFiling, type Tx } from "../state/transitions.ts";

/**
 * Moves one CT600 part's tax_status when the state machine allows it and the message is about
 * that part's submission (its correlation id, when the part has one). Fills in the correlation id
 * when the outcome overtook the record of the submit.
 */
async function movePart(
  tx: Tx,
  filing: LockedFiling,
  message: { part_number: number; correlation_id: string },
  to: SubmissionStatus,
  cause: Cause,
  fields: { taxIruNumber?: string; taxReceiptMessage?: string; taxAcceptedAt?: Date; errorCode?: string; errorMessage?: string } = {},
): Promise<boolean> {
  const part = filing.parts.find((p) => p.partNumber === message.part_number);
  if (!part) return false;
  if (part.taxCorrelationId !== null && part.taxCorrelationId !== message.correlation_id) return false;
  if (!submissionMayMove(part.taxStatus, to)) return false;
  await tx.filingPart.update({
    where: { filingId_partNumber: { filingId: filing.id, partNumber: part.partNumber } },
    data: { taxStatus: to, taxCorrelationId: message.correlation_id, updatedAt: new Date(), ...fields },
  });
  const detail = fields.errorCode ? ` (${fields.errorCode})` : "";
  await recordHistory(tx, { filingId: filing.id, partNumber: part.partNumber, field: "tax_status", from: part.taxStatus, to, cause: `${cause.text}${detail}` });
  return true;
}

/** `tax.part_polling`: the first poll found no answer yet. */
export function applyTaxPolling(payload: TaxPartPolling) {
  return (tx: Tx, filing: LockedFiling, cause: Cause) => movePart(tx, filing, payload, "polling", cause);
}

/**
 * `tax.part_outcome`: accepted (the receipt's IRmark is the part's tax_iru_number; the receipt's
 * message and acceptance time are kept for its ct600_pdf), rejected or error.
 */
export function applyTaxOutcome(payload: TaxPartOutcome) {
  return (tx: Tx, filing: LockedFiling, cause: Cause) =>
    payload.outcome === "accepted"
      ? movePart(tx, filing, payload, "accepted", cause, {
          taxIruNumber: payload.receipt_irmark_base32,
          taxReceiptMessage: payload.receipt_message,
          taxAcceptedAt: new Date(payload.accepted_time),
        })
      : movePart(tx, filing, payload, payload.outcome, cause, { errorCode: payload.error.code, errorMessage: payload.error.message });
}
