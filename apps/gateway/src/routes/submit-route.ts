import { IdempotencyKey, IDEMPOTENCY_KEY_HEADER, SandboxSubmitResponse, submitEnvelope } from "@dormant/contracts";
import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { FilingBackend, FilingCaller, SubmitInput } from "../filing-backend/filing-backend.ts";
import { sendSubmitted } from "../http/envelope.ts";
import { API_KEY_SECURITY, errorResponses, jsonResponse } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
import type { HandlerContext } from "./route.ts";

/** The headers both submits read: the Idempotency-Key. */
export const SubmitHeaders = z.object({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKey });

/** What differs between the POST operations on filings (submits, validations); tags and security are shared. */
export interface FilingsPostOperation {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The answer's schema (a submit's live answer: a test key answers SandboxSubmitResponse). */
  response: z.ZodType;
}

/** A POST operation on filings with its answers (its `request` comes from the route's declaration). */
export function filingsPostOperation(operation: FilingsPostOperation, responses: RouteConfig["responses"]): Omit<RouteConfig, "request"> {
  // Keys in the order of the other operations: the document lists them as given.
  return {
    method: "post",
    path: operation.path,
    operationId: operation.operationId,
    tags: ["Filings"],
    summary: operation.summary,
    description: operation.description,
    security: API_KEY_SECURITY,
    responses,
  };
}

/** The OpenAPI operation of a submit. */
export function submitOperation(operation: FilingsPostOperation): Omit<RouteConfig, "request"> {
  return filingsPostOperation(operation, {
    202: jsonResponse(
      "Submitted (live), or a sandbox filing (test key).",
      submitEnvelope(z.union([operation.response, SandboxSubmitResponse])),
      {
        authenticated: true,
      },
    ),
    ...errorResponses([400, 401, 402, 409, 413, 415, 429, 502, 503], { authenticated: true }),
  });
}

/**
 * The handler of a submit: the backend of the caller's key mode files the validated body under
 * the Idempotency-Key, and the answer is 202 with the filing.
 */
export function submitHandler<B>(submit: (backend: FilingBackend, caller: FilingCaller, input: SubmitInput<B>) => Promise<unknown>) {
  return async ({ headers, body }: { headers: z.output<typeof SubmitHeaders>; body: B }, { res, deps }: HandlerContext): Promise<void> => {
    const { caller, backend } = callerOf(res, deps.backends);
    sendSubmitted(res, await submit(backend, caller, { idempotencyKey: headers[IDEMPOTENCY_KEY_HEADER], body }));
  };
}
