import { Ct600SubmitRequest, Ct600SubmitResponse } from "@dormant/contracts";
import { defineRoute } from "./route.ts";
import { SubmitHeaders, submitHandler, submitOperation } from "./submit-route.ts";

/** `POST /filings/ct600`: submit a dormant nil CT600 (sandbox with a test key). */
export const submitCt600Route = defineRoute({
  kind: "submit",
  openapi: submitOperation({
    path: "/filings/ct600",
    operationId: "submitCt600",
    summary: "Submit a dormant CT600",
    description:
      "Submits a nil corporation-tax return. Derived values (company name, period start, declarant) come from the registry unless overridden. " +
      "A period over 12 months is split into two submissions (`period_split`, `parts`). With a test key nothing is sent, stored or charged: " +
      "the answer is a sandbox filing whose company number decides the outcome of the first poll.",
    response: Ct600SubmitResponse,
  }),
  request: { headers: SubmitHeaders, body: Ct600SubmitRequest },
  handle: submitHandler((backend, caller, input) => backend.submitCt600(caller, input)),
});
