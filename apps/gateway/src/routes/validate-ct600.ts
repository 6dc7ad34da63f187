import { Ct600SubmitRequest, Ct600ValidationResult } from "@dormant/contracts";
import { bodyCheckedByHandler } from "./request-schemas.ts";
import { defineRoute } from "./route.ts";
import { validateHandler, validateOperation } from "./validate-route.ts";

/** `POST /filings/ct600/validate`: everything a CT600 submit checks, nothing filed. */
export const validateCt600Route = defineRoute({
  kind: "check",
  openapi: validateOperation({
    path: "/filings/ct600/validate",
    operationId: "validateCt600",
    summary: "Validate a CT600 without filing it",
    description:
      "Takes the `POST /filings/ct600` body and runs everything that submit runs before money or the tax authority are involved: the request " +
      "contract, derivation from the registry (test keys: the sandbox's made-up company), every override, the business rules, the period " +
      "split, and for each return the message as it would be sent, checked against HMRC's CT600 schema and HMRC's business rules. " +
      "Always 200 with the report when the body is JSON: `valid`, `derived_values`, `period_split`, `parts`, `problems` (with HMRC's rule " +
      "number where one applies) and the `checks` that ran. No Idempotency-Key; nothing is stored, held, charged or sent, and a zero " +
      "balance is no obstacle. Credentials are checked for form only and go no further. Rate limits apply, and (extension) a validation limit per account and mode across its keys, " +
      "30 a minute and 1,000 a day by default: past it 429 `RATE_LIMIT_EXCEEDED` with `Retry-After`.",
    response: Ct600ValidationResult,
  }),
  request: { body: bodyCheckedByHandler(Ct600SubmitRequest) },
  handle: validateHandler((backend, caller, body: Ct600SubmitRequest) => backend.validateCt600(caller, body)),
});
