import { AccountsSubmitRequest, AccountsSubmitResponse, IdempotencyKey, IDEMPOTENCY_KEY_HEADER, SandboxSubmitResponse, submitEnvelope } from "@dormant/contracts";
import { z } from "zod";
import { sendSubmitted } from "../http/envelope.ts";
import { RequestValidation } from "../http/validation.ts";
import { API_KEY_SECURITY, errorResponses, jsonResponse } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
import { defineRoute } from "./route.ts";

/** `POST /filings/accounts`: submit dormant accounts (sandbox with a test key). */
export const submitAccountsRoute = defineRoute({
  kind: "submit",
  openapi: {
    method: "post",
    path: "/filings/accounts",
    operationId: "submitAccounts",
    tags: ["Filings"],
    summary: "Submit dormant accounts",
    description:
      "Submits dormant accounts (iXBRL) to the registry. Derived values (company name, entity type, period, signing director, share capital, cash) " +
      "come from the registry unless overridden; a given balance sheet must balance. With a test key nothing is sent, stored or charged: " +
      "the answer is a sandbox filing whose company number decides the outcome of the first poll.",
    security: API_KEY_SECURITY,
    request: {
      headers: z.object({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKey }),
      body: { required: true, content: { "application/json": { schema: AccountsSubmitRequest } } },
    },
    responses: {
      202: jsonResponse("Submitted (live), or a sandbox filing (test key).", submitEnvelope(z.union([AccountsSubmitResponse, SandboxSubmitResponse])), {
        authenticated: true,
      }),
      ...errorResponses([400, 401, 402, 409, 413, 415, 429, 502, 503], { authenticated: true }),
    },
  },
  parse(req) {
    const validation = new RequestValidation();
    const idempotencyKey = validation.check(IdempotencyKey, req.get(IDEMPOTENCY_KEY_HEADER), IDEMPOTENCY_KEY_HEADER);
    const body = validation.check(AccountsSubmitRequest, req.body, "body");
    validation.finish();
    return { idempotencyKey: idempotencyKey as string, body: body as AccountsSubmitRequest };
  },
  async handle(input, { res, deps }) {
    const { caller, backend } = callerOf(res, deps.backends);
    sendSubmitted(res, await backend.submitAccounts(caller, input));
  },
});
