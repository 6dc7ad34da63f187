import {
  RegistryUndecidedStatusCode,
  type Filing as FilingView,
  type FilingError,
  type FilingPart as FilingPartView,
  type FilingSummary,
} from "@dormant/contracts";
import { isoDate } from "../db/date-columns.ts";
import { clientReferenceOf } from "../state/client-reference.ts";
import type { FilingRecord, PartRecord } from "../state/filing-record.ts";
import { isFinalFiling, isFinalSubmission } from "../state/filing-state.ts";

/** What a list entry shows of a filing. */
export type SummaryFields = Pick<
  FilingRecord,
  "id" | "filingType" | "companyNumber" | "companyName" | "periodEnd" | "status" | "clientReference" | "createdAt"
>;

function partView(
  part: Pick<PartRecord, "partNumber" | "periodStart" | "periodEnd" | "taxStatus" | "taxCorrelationId" | "taxIruNumber">,
): FilingPartView {
  return {
    part_number: part.partNumber,
    period: { start: isoDate(part.periodStart), end: isoDate(part.periodEnd) },
    tax_status: part.taxStatus,
    ...(part.taxCorrelationId ? { tax_correlation_id: part.taxCorrelationId } : {}),
    ...(part.taxIruNumber ? { tax_iru_number: part.taxIruNumber } : {}),
  };
}

/**
 * The registry's undecided status (PENDING, PARKED) while the registry has not decided the
 * accounts and the filing is not final; nothing once it decided or the filing ended.
 */
function registryExamination(filing: FilingRecord): Pick<FilingView, "registry_examination"> {
  const shown = filing.registryExamination;
  if (!shown || isFinalFiling(filing.status) || isFinalSubmission(filing.registryStatus ?? "pending")) return {};
  const code = RegistryUndecidedStatusCode.safeParse(shown.statusCode);
  if (!code.success) return {};
  return {
    registry_examination: {
      status_code: code.data,
      since: shown.since.toISOString(),
      ...(shown.examinerComment ? { examiner_comment: shown.examinerComment } : {}),
    },
  };
}

/**
 * A stored filing as the spec's Filing:
 * - CT600, single period: `tax_status`, `tax_correlation_id` and, once accepted,
 *   `tax_iru_number` (the receipt's IRmark in base32) at the top level;
 * - CT600, split period: `parts` (each with its own status, correlation id and IRU number) and
 *   the first part's `tax_correlation_id` at the top level (as in the submit answer); no top-level
 *   tax_status or tax_iru_number, since each part has its own;
 * - accounts: `registry_status` and `registry_submission_number`, and `registry_examination`
 *   while the registry holds them undecided (PENDING, PARKED);
 * - `error` when rejected or error.
 */
export function filingView(filing: FilingRecord): FilingView {
  const parts = [...filing.parts].sort((a, b) => a.partNumber - b.partNumber);
  const first = parts[0];
  const error: FilingError | undefined =
    (filing.status === "rejected" || filing.status === "error") && filing.errorCode
      ? ({ code: filing.errorCode, message: filing.errorMessage ?? "" } as FilingError)
      : undefined;
  const ct600 =
    filing.filingType !== "ct600" || !first
      ? {}
      : filing.periodSplit
        ? { parts: parts.map(partView), ...(first.taxCorrelationId ? { tax_correlation_id: first.taxCorrelationId } : {}) }
        : {
            tax_status: first.taxStatus,
            ...(first.taxCorrelationId ? { tax_correlation_id: first.taxCorrelationId } : {}),
            ...(first.taxIruNumber ? { tax_iru_number: first.taxIruNumber } : {}),
          };
  const accounts =
    filing.filingType === "accounts"
      ? {
          ...(filing.registryStatus ? { registry_status: filing.registryStatus } : {}),
          ...(filing.registrySubmissionNumber ? { registry_submission_number: filing.registrySubmissionNumber } : {}),
          ...registryExamination(filing),
        }
      : {};
  return {
    filing_id: filing.id,
    filing_type: filing.filingType,
    company_number: filing.companyNumber,
    company_name: filing.companyName,
    period: { start: isoDate(filing.periodStart), end: isoDate(filing.periodEnd) },
    status: filing.status,
    period_split: filing.periodSplit,
    ...ct600,
    ...accounts,
    ...(error ? { error } : {}),
    ...clientReferenceOf(filing),
    created_at: filing.createdAt.toISOString(),
    updated_at: filing.updatedAt.toISOString(),
  };
}

export function filingSummary(filing: SummaryFields): FilingSummary {
  return {
    filing_id: filing.id,
    filing_type: filing.filingType,
    company_number: filing.companyNumber,
    company_name: filing.companyName,
    period_end: isoDate(filing.periodEnd),
    status: filing.status,
    ...clientReferenceOf(filing),
    created_at: filing.createdAt.toISOString(),
  };
}
