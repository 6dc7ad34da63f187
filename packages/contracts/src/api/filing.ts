import { z } from "zod";
import { FilingError } from "./filing-error.ts";
import {
  CalendarDate,
  ClientReference,
  CompanyNumber,
  DateTime,
  FilingPartStatus,
  FilingStatus,
  FilingType,
  Period,
} from "./primitives.ts";

/** A live filing id: `fil_` followed by an opaque id (sandbox ids are `fil_test_...`). */
export const LIVE_FILING_ID_PATTERN = /^fil_(?!test_)[A-Za-z0-9_-]{1,64}$/;

export const FilingPart = z
  .object({
    part_number: z.number().int().min(1),
    period: Period,
    tax_status: FilingPartStatus,
    tax_correlation_id: z.string().optional(),
    tax_iru_number: z.string().optional(),
  })
  .meta({ id: "FilingPart", description: "One of the two CT600 submissions of a split (longer than 12 months) period." });
export type FilingPart = z.infer<typeof FilingPart>;

/** The registry's status codes of accounts it holds without a decision yet (its GetSubmissionStatus `StatusCode`). */
export const RegistryUndecidedStatusCode = z.enum(["PENDING", "PARKED"]).meta({
  id: "RegistryUndecidedStatusCode",
  description:
    "`PENDING`: the registry has not examined the accounts yet. `PARKED`: an examiner holds them (see `examiner_comment`). Either can last days.",
});
export type RegistryUndecidedStatusCode = z.infer<typeof RegistryUndecidedStatusCode>;

export const RegistryExamination = z
  .object({
    status_code: RegistryUndecidedStatusCode,
    since: DateTime.meta({ description: "When the registry was first seen answering this status code." }),
    examiner_comment: z.string().optional().meta({ description: "The examiner's comment, when the registry gives one." }),
  })
  .meta({
    id: "RegistryExamination",
    description:
      "(extension) Accounts filings while `submitted`, once the registry has answered that it holds them undecided: its status code and since when, as its status answers said. Absent once the registry decides.",
  });
export type RegistryExamination = z.infer<typeof RegistryExamination>;

export const Filing = z
  .object({
    filing_id: z.string().meta({ example: "fil_2b9d6f0c4a8e4d3f9c1a7b5e3d2f1a0c" }),
    filing_type: FilingType,
    company_number: CompanyNumber,
    company_name: z.string(),
    period: Period,
    status: FilingStatus,
    period_split: z.boolean().meta({ description: "CT600 whose period was longer than 12 months and was split in two." }),
    parts: z.array(FilingPart).optional().meta({ description: "Present on split CT600 filings, each part with its own status." }),
    tax_status: FilingPartStatus.optional(),
    tax_correlation_id: z.string().optional().meta({ description: "CT600 filings." }),
    tax_iru_number: z.string().optional().meta({ description: "CT600 filings, once accepted." }),
    registry_status: z.string().optional().meta({ description: "Accounts filings." }),
    registry_submission_number: z.string().optional().meta({ description: "Accounts filings." }),
    registry_examination: RegistryExamination.optional(),
    error: FilingError.optional(),
    client_reference: ClientReference.optional().meta({ description: "The submit's `client_reference`, when it had one." }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({
    id: "Filing",
    description:
      "A live filing as returned by `GET /filings/{filing_id}`. `tax_*` fields belong to CT600 filings (`tax_status` to single-period ones; split ones have `parts`), `registry_*` fields to accounts filings; `error` is present when the status is `rejected` or `error`.",
  });
export type Filing = z.infer<typeof Filing>;

export const FilingSummary = z
  .object({
    filing_id: z.string(),
    filing_type: FilingType,
    company_number: CompanyNumber,
    company_name: z.string(),
    period_end: CalendarDate,
    status: FilingStatus,
    client_reference: ClientReference.optional().meta({ description: "The submit's `client_reference`, when it had one." }),
    created_at: DateTime,
  })
  .meta({ id: "FilingSummary", description: "An item of the filings list." });
export type FilingSummary = z.infer<typeof FilingSummary>;

export const FilingIdParams = z.object({
  filing_id: z.string().min(1).max(128).meta({ description: "The `filing_id` returned by a submit." }),
});
export type FilingIdParams = z.infer<typeof FilingIdParams>;
