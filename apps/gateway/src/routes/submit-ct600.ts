import { Ct600SubmitRequest, Ct600SubmitResponse, IdempotencyKey, IDEMPOTENCY_KEY_HEADER, SandboxSubmitResponse, submitEnvelope } from "@dormant/contracts";
import { z } from "zod";
import { sendSubmitted } from "../http/envelope.ts";
import { RequestValidation } from "../http/validation.ts";
import { API_KEY_SECURITY, errorResponses, jsonResponse } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
import { defineRoute } from "./route.ts";

/** `POST /filings/ct600`: submit a dormant nil CT600 (sandbox with a test key). */
export const submitCt600Route = defineRoute({
  kind: "submit",
  openapi: {
    method: "post",
    path: "/filings/ct600",
    operationId: "submitCt600",
    tags: ["Filings"],
    summary: "Submit a dormant CT600",
    description:
      "Submits a nil corporation-tax return. Derived values (company name, period start, declarant) come from the registry unless overridden. " +
      "A period over 12 months is split into two submissions (`period_split`, `parts`). With a test key nothing is sent, stored or charged: " +
      "the answer is a sandbox filing whose company number decides the outcome of the first poll.",
    security: API_KEY_SECURITY,
    request: {
      headers: z.object({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKey }),
      body: { required: true, content: { "application/json": { schema: Ct600SubmitRequest } } },
    },
    responses: {
      202: jsonResponse("Submitted (live), or a sandbox filing (test key).", submitEnvelope(z.union([Ct600SubmitResponse, SandboxSubmitResponse])), {
        authenticated: true,
      }),
      ...errorResponses([400, 401, 402, 409, 413, 415, 429, 502, 503], { authenticated: true }),
    },
  },
  parse(req) {
    const validation = new RequestValidation();
    const idempotencyKey = validation.check(IdempotencyKey, req.get(IDEMPOTENCY_KEY_HEADER), IDEMPOTENCY_KEY_HEADER);
    const body = validation.check(Ct600SubmitRequest, req.body, "body");
    validation.finish();
    return { idempotencyKey: idempotencyKey as string, body: body as Ct600SubmitRequest };
  },
  async handle(input, { res, deps }) {
    const { caller, backend } = callerOf(res, deps.backends);
    sendSubmitted(res, await backend.submitCt600(caller, input));
  },
});
