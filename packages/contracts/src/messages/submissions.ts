import { z } from "zod";
import { CalendarDate, CompanyNumber, DateTime, Utr } from "../api/primitives.ts";
import { FilingError } from "../api/filing-error.ts";
import { RegistryUndecidedStatusCode } from "../api/filing.ts";
import { ValidationCheck, ValidationProblem } from "../api/validate.ts";
import { SealedSecret } from "./sealed-secret.ts";

/**
 * The filing service and the submitter workers: RPCs to submit (answered once the authority
 * acknowledged), poll commands the workers schedule for themselves, and the outcomes they report
 * back to the filing service on `filing.outcomes`.
 *
 * Third-party credentials travel sealed (see sealed-secret.ts), bound with `submissionBinding`.
 */
export const TAX_SUBMIT_QUEUE = "tax.submit";
/**
 * Validation's checks of a CT600 part (`tax.check_part`): a queue of its own, with a prefetch of
 * its own, so that validation run in a loop never delays a live submit on `tax.submit`.
 */
export const TAX_CHECK_QUEUE = "tax.check";
export const REGISTRY_SUBMIT_QUEUE = "registry.submit";
export const TAX_POLL_QUEUE = "tax.poll";
export const REGISTRY_POLL_QUEUE = "registry.poll";
export const FILING_OUTCOMES_QUEUE = "filing.outcomes";

/** What sealed submission credentials are bound to: one part of one filing. */
export function submissionBinding(filingId: string, partNumber: number): string {
  return `submission:${filingId}:${partNumber}`;
}

const FilingId = z.string().regex(/^fil_[A-Za-z0-9_-]{1,64}$/);
const PartNumber = z.number().int().min(1).max(2);

// ---- tax (CT600) ----

/** `tax.submit_part`: one CT600 period (a split filing sends two). */
export const SubmitTaxPartRequest = z.object({
  filing_id: FilingId,
  part_number: PartNumber,
  parts_total: PartNumber,
  company: z.object({ number: CompanyNumber, name: z.string().min(1), utr: Utr }),
  period: z.object({ start: CalendarDate, end: CalendarDate }),
  declarant: z.object({ name: z.string().min(1), status: z.enum(["Director", "Company Secretary", "Agent"]) }),
  /**
   * The company's dormant accounts, attached to the return in iXBRL: the bytes the registry
   * received (an accounts filing's ixbrl_accounts document). `covers` is `this-period` when they
   * are the accounts of this return's period, `different-period` otherwise (each part of a split
   * period: the accounts cover the whole period of account). Absent: the return gives the reason
   * `Company dormant` for having no accounts (packages/govtalk README, "Accounts: attached, or a
   * reason").
   */
  accounts: z
    .object({
      ixbrl_base64: z.string().min(1),
      covers: z.enum(["this-period", "different-period"]),
      filename: z.string().min(1).max(100).optional(),
    })
    .optional(),
  /** Sealed `Ct600Credentials` (government_gateway_id, government_gateway_password). */
  credentials: SealedSecret,
});
export type SubmitTaxPartRequest = z.infer<typeof SubmitTaxPartRequest>;

/**
 * `tax.check_part`: a part as `tax.submit_part` would send it, without credentials. The tax
 * submitter builds the message it would send (with a placeholder sender: credentials are in the
 * envelope's header, never in the return the checks read) and runs the authority's checks on it.
 */
export const CheckTaxPartRequest = SubmitTaxPartRequest.omit({ credentials: true });
export type CheckTaxPartRequest = z.infer<typeof CheckTaxPartRequest>;

/** The checks that ran on the part (CT600 schema, HMRC's business rules) and the problems they found. */
export const CheckTaxPartResponse = z.object({ checks: z.array(ValidationCheck), problems: z.array(ValidationProblem) });
export type CheckTaxPartResponse = z.infer<typeof CheckTaxPartResponse>;

export const SubmitTaxPartResponse = z.object({
  correlation_id: z.string().regex(/^[0-9A-F]{1,32}$/),
  irmark_base64: z.string().length(28),
  irmark_base32: z.string().length(32),
  /** Seconds the authority asked us to wait before polling. */
  poll_interval_seconds: z.number().int().positive(),
  submitted_at: DateTime,
  /** The GovTalk message exactly as sent, with the gateway password masked (the ct600_xml document). */
  submitted_xml: z.string().min(1),
});
export type SubmitTaxPartResponse = z.infer<typeof SubmitTaxPartResponse>;

/**
 * The record of a part's submit, as the tax submitter knows it once the authority acknowledged
 * it: the IRmark, when it was sent, and the message as sent (password masked: the ct600_xml
 * document). The submit RPC answers it; the first poll command takes it along, and every
 * `tax.part_polling` and `tax.part_outcome` carries it, so that the filing service has it
 * whichever of these reaches it first (the RPC's answer can be lost on its way back:
 * docs/decisions.md, "Where a submission's record lives"). Optional on those messages only for
 * the ones already in flight when this was introduced.
 */
export const TaxPartSubmission = SubmitTaxPartResponse.pick({ irmark_base64: true, submitted_at: true, submitted_xml: true });
export type TaxPartSubmission = z.infer<typeof TaxPartSubmission>;

/** `tax.poll_part`: scheduled by the tax submitter for itself (delayed command on `tax.poll`). */
export const PollTaxPartCommand = z.object({
  filing_id: FilingId,
  part_number: PartNumber,
  correlation_id: z.string().regex(/^[0-9A-F]{1,32}$/),
  irmark_base64: z.string().length(28),
  /** Where the authority said to poll (ResponseEndPoint), when it said. */
  response_endpoint: z.string().optional(),
  poll_interval_seconds: z.number().int().positive(),
  /** After this instant the part ends in `error` (GATEWAY_TIMEOUT); for a late check, when the checks stop. */
  give_up_at: DateTime,
  /** 1 for the first poll. */
  poll_number: z.number().int().positive(),
  /** The record of the part's submit, passed on to `tax.part_polling` and `tax.part_outcome`. */
  submission: TaxPartSubmission.optional(),
  /**
   * A late check: the part already ended in `error` (no final answer by its give-up time), and the
   * authority is asked again now and then until `give_up_at`; its acceptance is published then (a
   * late acceptance, which the filing service applies), and nothing when the checks end unanswered.
   */
  late_check: z.literal(true).optional(),
});
export type PollTaxPartCommand = z.infer<typeof PollTaxPartCommand>;

/** `tax.part_polling`: the first poll happened and the authority has no answer yet. */
export const TaxPartPolling = z.object({
  filing_id: FilingId,
  part_number: PartNumber,
  correlation_id: z.string(),
  polled_at: DateTime,
  /** The record of the part's submit (the filing service fills in what it lacks). */
  submission: TaxPartSubmission.optional(),
});
export type TaxPartPolling = z.infer<typeof TaxPartPolling>;

/** `tax.part_outcome`: the part's final answer. */
export const TaxPartOutcome = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("accepted"),
    filing_id: FilingId,
    part_number: PartNumber,
    correlation_id: z.string(),
    /** The IRmark quoted in the authority's receipt (base32): the filing's `tax_iru_number`. */
    receipt_irmark_base32: z.string().min(1),
    receipt_message: z.string(),
    accepted_time: DateTime,
    /** The record of the part's submit (the filing service fills in what it lacks). */
    submission: TaxPartSubmission.optional(),
  }),
  z.object({
    outcome: z.enum(["rejected", "error"]),
    filing_id: FilingId,
    part_number: PartNumber,
    correlation_id: z.string(),
    error: FilingError,
    /** The authority's own error numbers and texts, for support. */
    authority_errors: z.array(z.object({ number: z.number().int().nullable(), text: z.string() })).default([]),
    /** The record of the part's submit, when the authority acknowledged it. */
    submission: TaxPartSubmission.optional(),
  }),
]);
export type TaxPartOutcome = z.infer<typeof TaxPartOutcome>;

// ---- registry (dormant accounts) ----

/** `registry.submit_accounts`. */
export const SubmitRegistryAccountsRequest = z.object({
  filing_id: FilingId,
  company: z.object({ number: CompanyNumber, name: z.string().min(1), registry_company_type: z.enum(["EW", "SC", "NI"]) }),
  /** Exactly 6 characters, unique per presenter forever (allocated by the filing service). */
  submission_number: z.string().regex(/^[A-Z0-9]{6}$/),
  date_signed: CalendarDate,
  /** The iXBRL accounts exactly as they are to be filed (the ixbrl_accounts document). */
  ixbrl_base64: z.string().min(1),
  document_filename: z.string().min(1),
  /** Sealed `AccountsCredentials` (company_auth_code). */
  credentials: SealedSecret,
});
export type SubmitRegistryAccountsRequest = z.infer<typeof SubmitRegistryAccountsRequest>;

export const SubmitRegistryAccountsResponse = z.object({
  submission_number: z.string(),
  submitted_at: DateTime,
});
export type SubmitRegistryAccountsResponse = z.infer<typeof SubmitRegistryAccountsResponse>;

/** `registry.poll_status`: scheduled by the registry submitter for itself (delayed, on `registry.poll`). */
export const PollRegistryStatusCommand = z.object({
  filing_id: FilingId,
  submission_number: z.string(),
  company_number: CompanyNumber,
  poll_interval_seconds: z.number().int().positive(),
  give_up_at: DateTime,
  poll_number: z.number().int().positive(),
  /** When the registry acknowledged the accounts: passed on to `registry.status` and `registry.outcome`. */
  submitted_at: DateTime.optional(),
  /**
   * The undecided status last reported to the filing service (`registry.status`), so that a poll
   * reports only a change; absent until the registry first answers PENDING or PARKED.
   */
  reported_status: z.object({ code: RegistryUndecidedStatusCode, since: DateTime, examiner_comment: z.string().optional() }).optional(),
});
export type PollRegistryStatusCommand = z.infer<typeof PollRegistryStatusCommand>;

/** `registry.outcome`: the registry's final status for the accounts. */
export const RegistryOutcome = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("accepted"),
    filing_id: FilingId,
    submission_number: z.string(),
    registry_status: z.string(),
    decided_at: DateTime,
    /** When the registry acknowledged the accounts (the filing service fills it in when it lacks it). */
    submitted_at: DateTime.optional(),
  }),
  z.object({
    outcome: z.enum(["rejected", "error"]),
    filing_id: FilingId,
    submission_number: z.string(),
    registry_status: z.string(),
    error: FilingError,
    rejections: z.array(z.object({ code: z.string(), description: z.string() })).default([]),
    /** When the registry acknowledged the accounts. */
    submitted_at: DateTime.optional(),
  }),
]);
export type RegistryOutcome = z.infer<typeof RegistryOutcome>;

/**
 * `registry.status`: the registry holds the accounts without a decision (PENDING or PARKED), and
 * this status differs from the one reported before (code or examiner comment): sent on a change,
 * not on every poll. The filing service shows it on the filing; it never changes a status.
 */
export const RegistryStatusReport = z.object({
  filing_id: FilingId,
  submission_number: z.string(),
  registry_status: RegistryUndecidedStatusCode,
  examiner_comment: z.string().optional(),
  /** When the poll that saw this status was answered. */
  polled_at: DateTime,
  /** When the registry acknowledged the accounts (the filing service fills it in when it lacks it). */
  submitted_at: DateTime.optional(),
});
export type RegistryStatusReport = z.infer<typeof RegistryStatusReport>;
