import { z } from "zod";
import { EVEN_WHEN_OTHER_FIELDS_FAIL, isCalendarDate, pick } from "./cross-field.ts";
import { FilingPart } from "./filing.ts";
import {
  CalendarDate,
  ClientReference,
  CompanyNumber,
  DateTime,
  FilingStatus,
  NAME_LIMITS,
  Utr,
  boundedName,
  ct600Name,
  fieldError,
} from "./primitives.ts";

const OBJECT = { error: fieldError("must be an object") };

export const DeclarantStatus = z
  .enum(["Director", "Company Secretary", "Agent"], { error: fieldError("must be one of: Director, Company Secretary, Agent") })
  .meta({ id: "DeclarantStatus", description: "Capacity in which the declarant signs the return." });
export type DeclarantStatus = z.infer<typeof DeclarantStatus>;

export const Ct600Credentials = z
  .strictObject(
    {
      government_gateway_id: boundedName(NAME_LIMITS.governmentGatewayId).meta({ description: "Government Gateway user id." }),
      government_gateway_password: boundedName(NAME_LIMITS.governmentGatewayPassword).meta({
        format: "password",
        description: "Government Gateway password: used once for this submission, never stored or logged.",
      }),
    },
    OBJECT,
  )
  .meta({ id: "Ct600Credentials" });
export type Ct600Credentials = z.infer<typeof Ct600Credentials>;

/** The CT600 body's fields other than the credentials. */
const ct600Fields = {
  company_number: CompanyNumber,
  utr: Utr,
  period_end: CalendarDate.meta({ description: "Last day of the accounting period." }),
  company: z
    .strictObject({ name: ct600Name(NAME_LIMITS.ct600CompanyName).optional() }, OBJECT)
    .optional()
    .meta({ description: "Overrides of derived company data." }),
  period: z
    .strictObject({ start: CalendarDate.optional() }, OBJECT)
    .optional()
    .meta({ description: "Override of the derived period start." }),
  declarant: z
    .strictObject({ name: ct600Name(NAME_LIMITS.ct600DeclarantName).optional(), status: DeclarantStatus.optional() }, OBJECT)
    .optional()
    .meta({ description: "Who signs the declaration; the first active director when omitted." }),
  client_reference: ClientReference.optional(),
};

function ct600Rules(body: unknown, ctx: z.RefinementCtx): void {
  const start = pick(body, "period", "start");
  const end = pick(body, "period_end");
  if (isCalendarDate(start) && isCalendarDate(end) && start >= end) {
    ctx.addIssue({ code: "custom", path: ["period", "start"], message: "must be before period_end" });
  }
}

/**
 * `POST /filings/ct600` body. Unknown fields are refused (a misspelt override would otherwise be
 * silently ignored). `period.start`, when given, must be before `period_end`.
 */
export const Ct600SubmitRequest = z
  .strictObject({ ...ct600Fields, credentials: Ct600Credentials }, OBJECT)
  .superRefine(ct600Rules, EVEN_WHEN_OTHER_FIELDS_FAIL)
  .meta({ id: "Ct600SubmitRequest" });
export type Ct600SubmitRequest = z.infer<typeof Ct600SubmitRequest>;

/** The CT600 body without its credentials, under the same rules (the bus carries it so). */
export const Ct600FilingInput = z.strictObject(ct600Fields, OBJECT).superRefine(ct600Rules, EVEN_WHEN_OTHER_FIELDS_FAIL);
export type Ct600FilingInput = z.infer<typeof Ct600FilingInput>;

/** The fields of a CT600 request that override what is derived from the registry's data. */
export type Ct600Overrides = Pick<Ct600FilingInput, "company" | "period" | "declarant">;

export const Ct600DerivedValues = z
  .object({
    company_name: z.string(),
    period_start: CalendarDate,
    is_first_year: z.boolean(),
    declarant_name: z.string(),
    declarant_status: z.string(),
  })
  .meta({ id: "Ct600DerivedValues", description: "The values used for the return, derived from the registry unless overridden." });
export type Ct600DerivedValues = z.infer<typeof Ct600DerivedValues>;

export const Ct600SubmitResponse = z
  .object({
    filing_id: z.string(),
    status: FilingStatus,
    tax_correlation_id: z.string(),
    period_split: z.boolean(),
    parts: z.array(FilingPart).optional().meta({ description: "Only present when `period_split` is true." }),
    submitted_at: DateTime,
    derived_values: Ct600DerivedValues,
    client_reference: ClientReference.optional().meta({ description: "The request's `client_reference`, when it had one." }),
  })
  .meta({ id: "Ct600SubmitResponse", description: "A live CT600 submit: status `submitted`." });
export type Ct600SubmitResponse = z.infer<typeof Ct600SubmitResponse>;
