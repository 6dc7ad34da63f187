import { AccountsSubmitRequest, AccountsValidationResult } from "@dormant/contracts";
import { bodyCheckedByHandler } from "./request-schemas.ts";
import { defineRoute } from "./route.ts";
import { validateHandler, validateOperation } from "./validate-route.ts";

/** `POST /filings/accounts/validate`: everything an accounts submit checks, nothing filed. */
export const validateAccountsRoute = defineRoute({
  kind: "check",
  openapi: validateOperation({
    path: "/filings/accounts/validate",
    operationId: "validateAccounts",
    summary: "Validate dormant accounts without filing them",
    description:
      "Takes the `POST /filings/accounts` body and runs everything that submit runs before money or the registry are involved: the request " +
      "contract, derivation from the registry (test keys: the sandbox's made-up company), every override, the business rules (period, " +
      "approval date, balance sheet), and the iXBRL accounts rendered and checked for the registry's mandatory facts. Always 200 with the " +
      "report when the body is JSON: `valid`, `derived_values`, `period_split` (always false), `parts` (the one accounts submission), " +
      "`problems` and the `checks` that ran. No Idempotency-Key; nothing is stored, held, charged or sent, and a zero balance is no " +
      "obstacle. The authentication code is checked for form only and goes no further. Rate limits apply, and (extension) a validation limit per account and mode across its keys, " +
      "30 a minute and 1,000 a day by default: past it 429 `RATE_LIMIT_EXCEEDED` with `Retry-After`.",
    response: AccountsValidationResult,
  }),
  request: { body: bodyCheckedByHandler(AccountsSubmitRequest) },
  handle: validateHandler((backend, caller, body: AccountsSubmitRequest) => backend.validateAccounts(caller, body)),
});
