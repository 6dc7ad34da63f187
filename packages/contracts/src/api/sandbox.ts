import { z } from "zod";
import { FilingDocument } from "./documents.ts";
import { FilingError } from "./filing-error.ts";
import { FilingSummary } from "./filing.ts";
import { Pagination } from "./filings-list.ts";
import { ClientReference, CompanyNumber, FilingType } from "./primitives.ts";

/** `fil_test_{type}_{company}_{hash}`: the hash is 16 lower-case hex digits. */
export const SANDBOX_FILING_ID_PATTERN = /^fil_test_(ct600|accounts)_([A-Z0-9]{8})_([0-9a-f]{16})$/;

export const SandboxFilingId = z
  .string()
  .regex(SANDBOX_FILING_ID_PATTERN)
  .meta({ id: "SandboxFilingId", description: "`fil_test_{type}_{company}_{hash}`.", example: "fil_test_ct600_00000001_9f86d081884c7d65" });

export const SandboxOutcome = z.enum(["accepted", "rejected", "error"]).meta({
  id: "SandboxOutcome",
  description: "The final status a sandbox filing reports when polled, decided by its company number.",
});
export type SandboxOutcome = z.infer<typeof SandboxOutcome>;

export const SandboxSubmitResponse = z
  .object({
    filing_id: SandboxFilingId,
    status: z.literal("submitted"),
    sandbox: z.literal(true),
    message: z.string(),
    expected_outcome: SandboxOutcome,
    client_reference: ClientReference.optional().meta({
      description: "The request's `client_reference`, when it had one (sandbox filings are not stored, so their reads do not show it).",
    }),
  })
  .meta({ id: "SandboxSubmitResponse", description: "A submit with a test key: nothing is sent, stored or charged." });
export type SandboxSubmitResponse = z.infer<typeof SandboxSubmitResponse>;

export const SandboxFiling = z
  .object({
    filing_id: SandboxFilingId,
    filing_type: FilingType,
    company_number: CompanyNumber,
    status: SandboxOutcome,
    sandbox: z.literal(true),
    tax_status: SandboxOutcome,
    tax_correlation_id: z.string().meta({ example: "SANDBOX-CORR-9F86D081884C7D65A2F1E0B3C4D5E6F7" }),
    tax_iru_number: z.string().optional().meta({ description: "Accepted outcomes.", example: "SANDBOX-IRU-5E884898DA280471" }),
    registry_status: SandboxOutcome.optional(),
    registry_submission_number: z.string().optional().meta({ description: "Accounts filings.", example: "SANDBOX-SUB-2C26B46B68FFC68F" }),
    error: FilingError.optional(),
    client_reference: ClientReference.optional().meta({
      description:
        "In webhook events only: the submit's `client_reference`, when it had one (sandbox filings are not stored, so their reads cannot show it).",
    }),
  })
  .meta({
    id: "SandboxFiling",
    description:
      "A sandbox filing: its final status at once, derived from the id. `tax_iru_number` on accepted outcomes, `error` on rejected and error ones; accounts filings also carry `registry_status` and `registry_submission_number`.",
  });
export type SandboxFiling = z.infer<typeof SandboxFiling>;

export const SandboxFilingsList = z
  .object({
    filings: z.array(FilingSummary).max(0),
    pagination: Pagination,
    sandbox: z.literal(true),
    message: z.string(),
  })
  .meta({ id: "SandboxFilingsList", description: "Sandbox filings are stateless: the list is always empty." });
export type SandboxFilingsList = z.infer<typeof SandboxFilingsList>;

export const SandboxDocumentsList = z
  .object({
    filing_id: SandboxFilingId,
    documents: z.array(FilingDocument),
    sandbox: z.literal(true),
    message: z.string(),
  })
  .meta({
    id: "SandboxDocumentsList",
    description:
      "The sample documents of an accepted sandbox filing, rendered on request from sample data derived from the filing id, marked SANDBOX; nothing is stored.",
  });
export type SandboxDocumentsList = z.infer<typeof SandboxDocumentsList>;
