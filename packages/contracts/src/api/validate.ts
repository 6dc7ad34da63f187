import { z } from "zod";
import { AccountsDerivedValues } from "./accounts-submit.ts";
import { Ct600DerivedValues } from "./ct600-submit.ts";
import { ClientReference, Period } from "./primitives.ts";

/**
 * The validate-only submits (`POST /filings/ct600/validate`, `POST /filings/accounts/validate`):
 * everything a submit runs before money or an authority is involved, answered as a report.
 */

export const ValidationProblemCode = z
  .enum(["INVALID_FIELD", "BUSINESS_RULE", "AUTHORITY_SCHEMA", "AUTHORITY_RULE", "IXBRL_MANDATORY_FACT"])
  .meta({
    id: "ValidationProblemCode",
    description:
      "`INVALID_FIELD`: the body breaks the request contract (a submit would answer 400 VALIDATION_ERROR). " +
      "`BUSINESS_RULE`: the values derived from the registry with the body's overrides break a rule (unknown company, period, approval date, declarant...). " +
      "`AUTHORITY_SCHEMA`: the message built for the authority fails its published schema. " +
      "`AUTHORITY_RULE`: the CT600 fails one of HMRC's business rules (`rule` is HMRC's rule number). " +
      "`IXBRL_MANDATORY_FACT`: the accounts iXBRL lacks a fact the registry requires.",
  });
export type ValidationProblemCode = z.infer<typeof ValidationProblemCode>;

export const ValidationProblem = z
  .object({
    field: z.string().meta({
      description:
        "Where: a body field (`period.start`), `body`, `return` (the CT600 built for the authority; see `part_number`) or `accounts` (the iXBRL built for the registry).",
    }),
    code: ValidationProblemCode,
    message: z.string(),
    rule: z.number().int().optional().meta({ description: "The authority's own rule number, where one applies (HMRC's 9xxx rules)." }),
    part_number: z.number().int().min(1).optional().meta({ description: "The return (of a split CT600) the problem is in." }),
  })
  .meta({ id: "ValidationProblem" });
export type ValidationProblem = z.infer<typeof ValidationProblem>;

export const ValidationCheckName = z.enum(["contract", "business_rules", "ct600_schema", "hmrc_business_rules", "ixbrl_mandatory_facts"]);
export type ValidationCheckName = z.infer<typeof ValidationCheckName>;

export const ValidationCheck = z
  .object({
    name: ValidationCheckName,
    part_number: z.number().int().min(1).optional(),
    passed: z.boolean(),
  })
  .meta({
    id: "ValidationCheck",
    description:
      "One check that ran: `contract` (the request schema), `business_rules` (derivation and our rules), `ct600_schema` (HMRC's CT600 XSD, " +
      "per return), `hmrc_business_rules` (HMRC's compiled business rules, per return), `ixbrl_mandatory_facts` (the accounts iXBRL). " +
      "A check whose input could not be built does not run and is not listed.",
  });
export type ValidationCheck = z.infer<typeof ValidationCheck>;

/** One submission the filing would make: a CT600 return (two for a split period), or the accounts. */
export const ValidationPart = z
  .object({ part_number: z.number().int().min(1), period: Period })
  .meta({ id: "ValidationPart", description: "A submission the filing would make: each CT600 return, or the one accounts submission." });
export type ValidationPart = z.infer<typeof ValidationPart>;

function validationResult<D extends z.ZodType>(id: string, derivedValues: D, what: string) {
  return z
    .object({
      valid: z.boolean().meta({ description: "True when a submit of this body would be sent to the authority now (no problem found)." }),
      derived_values: derivedValues
        .nullable()
        .meta({ description: "What the submit would file; null when the body could not be derived." }),
      period_split: z.boolean().nullable().meta({ description: "Whether the period is split into two returns; null when not derived." }),
      parts: z.array(ValidationPart),
      problems: z.array(ValidationProblem),
      checks: z.array(ValidationCheck),
      client_reference: ClientReference.optional(),
      sandbox: z.literal(true).optional().meta({ description: "Present with a test key: derived from the sandbox rules." }),
    })
    .meta({
      id,
      description: `The validation of a ${what} body: nothing was stored, held, charged or sent. \`valid\` is false when \`problems\` is not empty.`,
    });
}

export const Ct600ValidationResult = validationResult("Ct600ValidationResult", Ct600DerivedValues, "CT600");
export type Ct600ValidationResult = z.infer<typeof Ct600ValidationResult>;

export const AccountsValidationResult = validationResult("AccountsValidationResult", AccountsDerivedValues, "accounts");
export type AccountsValidationResult = z.infer<typeof AccountsValidationResult>;
