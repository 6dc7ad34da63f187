import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import { successEnvelope, validationDetails, type ValidationCheck, type ValidationProblem } from "@dormant/contracts";
import type { z } from "zod";
import type { FilingBackend, FilingCaller } from "../filing-backend/filing-backend.ts";
import { sendData } from "../http/envelope.ts";
import { errorResponses, jsonResponse } from "../openapi/responses.ts";
import { callerOf } from "./caller.ts";
import type { HandlerContext } from "./route.ts";
import { type FilingsPostOperation, filingsPostOperation } from "./submit-route.ts";

/** The OpenAPI operation of a validate-only route: `response` is the report's schema (Ct600ValidationResult, AccountsValidationResult). */
export function validateOperation(operation: FilingsPostOperation): Omit<RouteConfig, "request"> {
  return filingsPostOperation(operation, {
    200: jsonResponse(
      "The validation report, valid or not: nothing was stored, held, charged or sent.",
      successEnvelope(operation.response),
      { authenticated: true },
    ),
    ...errorResponses([400, 401, 413, 415, 429, 502, 503], { authenticated: true }),
  });
}

/** The report of a body that breaks the request contract: nothing else could run. */
function contractReport(error: z.ZodError, caller: FilingCaller) {
  const problems: ValidationProblem[] = validationDetails(error).map(({ field, message }) => ({ field, code: "INVALID_FIELD", message }));
  return {
    valid: false,
    derived_values: null,
    period_split: null,
    parts: [],
    problems,
    checks: [{ name: "contract", passed: false }] satisfies ValidationCheck[],
    ...(caller.mode === "test" ? { sandbox: true } : {}),
  };
}

/**
 * The handler of a validate-only route: a body that breaks the contract is reported here (as
 * INVALID_FIELD problems, 200); a body that keeps it is validated by the backend of the caller's
 * key mode (derivation, business rules, the authority's checks) and reported with the contract
 * check first.
 */
export function validateHandler<B, R extends { checks: ValidationCheck[] }>(
  validate: (backend: FilingBackend, caller: FilingCaller, body: B) => Promise<R>,
) {
  return async ({ body }: { body: z.ZodSafeParseResult<B> }, { res, deps }: HandlerContext): Promise<void> => {
    const { caller, backend } = callerOf(res, deps.backends);
    if (!body.success) return sendData(res, 200, contractReport(body.error, caller));
    const report = await validate(backend, caller, body.data);
    sendData(res, 200, { ...report, checks: [{ name: "contract", passed: true }, ...report.checks] });
  };
}
