import {
  AccountsDerivedValues,
  AppError,
  Ct600DerivedValues,
  type AccountsSubmitResponse,
  type Ct600SubmitResponse,
  type FilingPart as FilingPartView,
} from "@dormant/contracts";
import { isoDate } from "../db/date-columns.ts";
import { clientReferenceOf } from "../state/client-reference.ts";
import type { FilingRecord } from "../state/filing-record.ts";

/**
 * The 202 answer of a submit, built from the filing as stored (the record the submit wrote last,
 * or the one a repeated submit reads), so that a repeated submit (same API key,
 * Idempotency-Key and body) gets the same answer as the first: status `submitted` and each part
 * `submitted` once acknowledged, whatever happened since (the filing itself shows that). What it
 * answers with is written once (correlation ids, submitted_at, derived values) or final, so the
 * record the submit just wrote answers as a read of it would. A filing that ended before every
 * part was acknowledged answers its own status.
 */
export function ct600SubmitResponse(filing: FilingRecord): Ct600SubmitResponse {
  const sorted = [...filing.parts].sort((a, b) => a.partNumber - b.partNumber);
  const first = sorted[0];
  if (!first?.taxCorrelationId) throw new AppError("INTERNAL_ERROR", "The filing has no acknowledged submission to answer with");
  const parts: FilingPartView[] = sorted.map((part) => ({
    part_number: part.partNumber,
    period: { start: isoDate(part.periodStart), end: isoDate(part.periodEnd) },
    tax_status: part.taxCorrelationId ? "submitted" : part.taxStatus,
    ...(part.taxCorrelationId ? { tax_correlation_id: part.taxCorrelationId } : {}),
  }));
  return {
    filing_id: filing.id,
    status: filing.submittedAt ? "submitted" : filing.status,
    tax_correlation_id: first.taxCorrelationId,
    period_split: filing.periodSplit,
    ...(filing.periodSplit ? { parts } : {}),
    submitted_at: (filing.submittedAt ?? first.submittedAt ?? filing.updatedAt).toISOString(),
    derived_values: Ct600DerivedValues.parse(filing.derivedValues),
    ...clientReferenceOf(filing),
  };
}

export function accountsSubmitResponse(filing: FilingRecord): AccountsSubmitResponse {
  if (!filing.registrySubmissionNumber) throw new AppError("INTERNAL_ERROR", "The filing has no registry submission number");
  return {
    filing_id: filing.id,
    status: filing.submittedAt ? "submitted" : filing.status,
    registry_submission_number: filing.registrySubmissionNumber,
    submitted_at: (filing.submittedAt ?? filing.updatedAt).toISOString(),
    derived_values: AccountsDerivedValues.parse(filing.derivedValues),
    ...clientReferenceOf(filing),
  };
}
