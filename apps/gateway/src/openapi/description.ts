import { ErrorCode, FILING_ERROR_CODES, HTTP_STATUS_BY_CODE, SANDBOX_COMPANIES } from "@dormant/contracts";

const ERROR_MEANINGS: Record<ErrorCode, string> = {
  VALIDATION_ERROR: "The request fails validation; `details` lists every violated field by path.",
  FILING_NOT_COMPLETE: "Documents asked for before the filing is accepted.",
  AUTH_REQUIRED: "The `X-API-Key` header is missing.",
  INVALID_KEY: "The key is malformed, unknown or revoked.",
  INSUFFICIENT_BALANCE: "The balance is below the 20.00 GBP fee; `details` has field `balance` with `required` and `available`.",
  FILING_NOT_FOUND: "Unknown filing, or not owned by the key (sandbox ids with live keys and the reverse).",
  DOCUMENT_NOT_FOUND: "The document type is not available for this filing.",
  IDEMPOTENCY_KEY_CONFLICT: "The Idempotency-Key was used with a different body (live keys).",
  RATE_LIMIT_EXCEEDED:
    "Per-minute or per-day limit used up, the key's or (extension) its account's across all its keys of the same mode; `Retry-After` says when to come back.",
  TAX_UNAVAILABLE:
    "The tax authority is temporarily unavailable; `Retry-After`. When `details` has field `filing_id` (`in_doubt`), the authority's answer was lost: that filing will be settled with the authority, never sent twice; a retry with the same Idempotency-Key and body answers 202 with it once settled.",
  REGISTRY_UNAVAILABLE:
    "The company registry is temporarily unavailable; `Retry-After`. When `details` has field `filing_id` (`in_doubt`), as for `TAX_UNAVAILABLE`.",
  TAX_AUTH_FAILED: "The tax authority refused the gateway credentials; `Retry-After`.",
  NOT_FOUND: "(extension) No such endpoint.",
  PAYLOAD_TOO_LARGE: "(extension) The body is larger than the limit (32 KiB by default).",
  UNSUPPORTED_MEDIA_TYPE: "(extension) The body is not JSON.",
  IDEMPOTENCY_KEY_IN_USE: "(extension) A request with this Idempotency-Key is still running; `Retry-After`.",
  FILING_EXISTS:
    "(extension) Live submits: this account already has a pending, submitted or accepted filing of this type for this company and period end; `details` has field `filing_id` with the existing `filing_id`. Filing again is allowed once it is rejected or error. Not in the sandbox.",
  WEBHOOK_ENDPOINT_NOT_FOUND: "(extension) No webhook endpoint with this id for this key's account and mode.",
  SERVICE_UNAVAILABLE: "(extension) A part of the platform is out of reach (e.g. the filing service); `Retry-After`.",
  INTERNAL_ERROR: "(extension) An unexpected failure; quote the `request_id`.",
};

/** The document's introduction: authentication, sandbox table, error codes (generated, so never stale). */
export function apiDescription(): string {
  const errors = ErrorCode.options.map((code) => `| ${HTTP_STATUS_BY_CODE[code]} | \`${code}\` | ${ERROR_MEANINGS[code]} |`).join("\n");
  const sandbox = Object.entries(SANDBOX_COMPANIES)
    .map(([company, s]) => `| ${company} | ${s.jurisdiction} | ${s.outcome} | ${s.reason} | ${s.error ? `\`${s.error.code}\`` : ""} |`)
    .join("\n");
  const filingErrors = Object.entries(FILING_ERROR_CODES)
    .map(([code, { status, description }]) => `| \`${code}\` | ${status} | ${description} |`)
    .join("\n");
  return `Files dormant company returns for formation agents: a nil CT600 with the tax authority and dormant accounts with the company registry.

Every endpoint except \`GET /health\` and this document needs the \`X-API-Key\` header. Keys starting \`api_test_\` select the sandbox; \`api_live_\` keys file for real (20.00 GBP per accepted filing). Submits need an \`Idempotency-Key\` header (at most 64 characters, kept 24 hours).

Responses are wrapped in \`{ success, data | error, request_id }\`; \`request_id\` is on submit and error responses, and every response has an \`X-Request-Id\` header.

## Sandbox (test keys)
Same validation as live; nothing is sent, stored or charged. A submit answers \`fil_test_{type}_{company}_{hash}\` (the hash is deterministic from the Idempotency-Key and the body), status \`submitted\`; the first poll answers the final status, decided by the company number (any other number: accepted).

| Company | Jurisdiction | Outcome | Reason | error.code |
|---|---|---|---|---|
${sandbox}

## Webhooks
Instead of polling, register an endpoint (\`POST /webhook_endpoints\`, no Idempotency-Key) and receive \`filing.accepted\`, \`filing.rejected\`, \`filing.errored\` and \`filing.documents_ready\` as signed POSTs (Standard Webhooks: headers \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`; verify them with a Standard Webhooks library and the endpoint's \`whsec_\` secret, shown only when the endpoint is created or its secret rotated). The body is \`{ id, type, created_at, data }\`, \`data\` being the filing as \`GET /filings/{filing_id}\` shows it; the events are described in the \`webhooks\` section. Answer 2xx within 10 seconds; anything else is retried (same \`webhook-id\`: deduplicate on it) for at least 3 days. Live and test keys have separate endpoints; a test key's sandbox submit sends the test endpoints at once the events a live filing would have: its outcome, then \`filing.documents_ready\` when accepted, \`data\` carrying the submit's \`client_reference\` (event ids \`evt_test_...\`, the same for the same submit).

## Error codes
| HTTP | Code | Meaning |
|---|---|---|
${errors}

## Filing error codes (the \`error\` of a rejected or error filing)
| Code | Status | Meaning |
|---|---|---|
${filingErrors}`;
}
