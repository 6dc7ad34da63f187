import { AccountsSubmitRequest, AccountsSubmitResponse } from "@dormant/contracts";
import { defineRoute } from "./route.ts";
import { SubmitHeaders, submitHandler, submitOperation } from "./submit-route.ts";

/** `POST /filings/accounts`: submit dormant accounts (sandbox with a test key). */
export const submitAccountsRoute = defineRoute({
  kind: "submit",
  openapi: submitOperation({
    path: "/filings/accounts",
    operationId: "submitAccounts",
    summary: "Submit dormant accounts",
    description:
      "Submits dormant accounts (iXBRL) to the registry. Derived values (company name, entity type, period, signing director, share capital, cash) " +
      "come from the registry unless overridden; a given balance sheet must balance. With a test key nothing is sent, stored or charged: " +
      "the answer is a sandbox filing whose company number decides the outcome of the first poll.",
    response: AccountsSubmitResponse,
  }),
  request: { headers: SubmitHeaders, body: AccountsSubmitRequest },
  handle: submitHandler((backend, caller, input) => backend.submitAccounts(caller, input)),
});
