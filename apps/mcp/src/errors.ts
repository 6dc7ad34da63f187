import { DormantApiError, FilingWaitTimeoutError } from "@dormant/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { jsonText } from "./results.ts";

/** What a model should do after each error code of the API. */
export const NEXT_STEP_BY_CODE: Record<string, string> = {
  VALIDATION_ERROR:
    "Fix the fields listed in details (each names the field and what it must be) and call the tool again. Nothing was filed or charged.",
  FILING_NOT_COMPLETE: "The filing is not accepted yet, so it has no documents: call wait_for_filing, then list_documents again.",
  AUTH_REQUIRED: "The API key is missing. Configure DORMANT_API_KEY (stdio) or send X-API-Key / Authorization: Bearer (HTTP).",
  INVALID_KEY: "The API key is unknown or revoked. Ask the account's owner for a valid key; retrying will not help.",
  INSUFFICIENT_BALANCE:
    "The account's available balance is below the 20.00 GBP fee (details show required and available). Nothing was filed. Ask the account's owner to top up, then submit again.",
  FILING_NOT_FOUND: "No filing with that id for this API key (test-key and live-key filings are separate). Check the id with list_filings.",
  DOCUMENT_NOT_FOUND: "That document type does not exist for this filing: call list_documents and use one of the types it lists.",
  IDEMPOTENCY_KEY_CONFLICT:
    "This idempotency_key was already used with different arguments in the last 24 hours. Use a new idempotency_key (or none) if you mean a different filing; repeat the original arguments to get the original filing.",
  FILING_EXISTS:
    "This account already has a pending, submitted or accepted filing of this type for this company and period_end (details name it). Do not file again: follow that filing with get_filing or wait_for_filing.",
  IDEMPOTENCY_KEY_IN_USE: "The same submit is still running. Wait a few seconds and call the tool again with the same arguments.",
  RATE_LIMIT_EXCEEDED: "Too many requests for this key. Wait retry_after_seconds, then try again.",
  TAX_UNAVAILABLE:
    "The tax authority could not be reached; nothing was charged. Submit again with the same arguments (and idempotency_key, if you gave one) after retry_after_seconds.",
  REGISTRY_UNAVAILABLE:
    "The company registry could not be reached; nothing was charged. Try again with the same arguments after retry_after_seconds.",
  TAX_AUTH_FAILED:
    "The tax authority refused the Government Gateway credentials. Ask the user to check the Government Gateway user id and password, then submit again with the corrected credentials.",
  WEBHOOK_ENDPOINT_NOT_FOUND:
    "No webhook endpoint with that id for this API key's account and mode. List the endpoints to find the right id.",
  SERVICE_UNAVAILABLE: "The platform is briefly unavailable. Try again with the same arguments after retry_after_seconds.",
  INTERNAL_ERROR: "The platform failed unexpectedly. Try again with the same arguments; if it persists, report the request_id to support.",
  NOT_FOUND: "The platform has no such endpoint: this MCP server and the API disagree. Report it with the request_id.",
  PAYLOAD_TOO_LARGE: "The arguments are too large. Send only the documented fields.",
  UNSUPPORTED_MEDIA_TYPE: "The platform refused the request's format: report it with the request_id.",
  UNEXPECTED_RESPONSE: "Something between this server and the API answered instead of the API. Try again later.",
};

const DEFAULT_NEXT_STEP = "Report the code and request_id to support.";

/** What to do after a submit in doubt (the API's 502 naming the filing, README "When an answer is lost"). */
export function inDoubtNextStep(filingId: string): string {
  return (
    `The authority's answer was lost, but filing ${filingId} exists: it will be settled with the authority and nothing will be sent twice (charged only if accepted). ` +
    `Do not file again. Follow it with get_filing or wait_for_filing (filing_id ${filingId}), or call the tool again with the same arguments and idempotency_key after retry_after_seconds: it answers this filing once settled.`
  );
}

/** An error of a tool call as a result the model can read: `isError`, the code, what it means and what to do next. */
export function toolError(error: unknown): CallToolResult {
  if (error instanceof DormantApiError) {
    return errorResult({
      code: error.code,
      status: error.status,
      message: error.message,
      details: error.details,
      request_id: error.requestId,
      retry_after_seconds: error.retryAfterSeconds,
      idempotency_key: error.idempotencyKey,
      filing_id: error.filingId,
      next_step: error.inDoubt && error.filingId ? inDoubtNextStep(error.filingId) : (NEXT_STEP_BY_CODE[error.code] ?? DEFAULT_NEXT_STEP),
    });
  }
  if (error instanceof FilingWaitTimeoutError) {
    return errorResult({ code: "WAIT_TIMED_OUT", message: error.message, next_step: "Call wait_for_filing again to keep waiting." });
  }
  return errorResult({
    code: "API_UNREACHABLE",
    message: "The filing API did not answer (network failure or time-out).",
    next_step:
      "Try again later. For a submit, repeat the same arguments (and idempotency_key, if you gave one): an identical submit is never filed twice within 24 hours.",
  });
}

function errorResult(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [jsonText({ error: body })] };
}
