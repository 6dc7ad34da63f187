import type { ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { ErrorEnvelope, successEnvelope } from "@dormant/contracts";
import type { z } from "zod";

type HeaderObject = { description: string; schema: { type: "string" | "integer"; format?: string } };

const REQUEST_ID: Record<string, HeaderObject> = {
  "X-Request-Id": { description: "The request's id (the caller's own when it sent a uuid).", schema: { type: "string", format: "uuid" } },
};

const RATE_LIMIT: Record<string, HeaderObject> = {
  "X-RateLimit-Limit-Minute": { description: "Requests allowed per minute for this key.", schema: { type: "integer" } },
  "X-RateLimit-Remaining-Minute": { description: "Requests left in the current minute.", schema: { type: "integer" } },
  "X-RateLimit-Limit-Day": { description: "Requests allowed per day (UTC) for this key.", schema: { type: "integer" } },
  "X-RateLimit-Remaining-Day": { description: "Requests left today.", schema: { type: "integer" } },
};

const RETRY_AFTER: Record<string, HeaderObject> = {
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
};

const ERRORS: Record<number, { description: string; retryAfter?: boolean }> = {
  400: {
    description:
      "`VALIDATION_ERROR`: `details` lists every violated field by path (same for live and test keys). `FILING_NOT_COMPLETE` for documents of a filing that is not accepted.",
  },
  401: { description: "`AUTH_REQUIRED`: no `X-API-Key`. `INVALID_KEY`: the key is malformed, unknown or revoked." },
  402: {
    description:
      "`INSUFFICIENT_BALANCE`: less than the 20.00 GBP fee available; `details` has field `balance` with `required` and `available`.",
  },
  404: {
    description:
      "`FILING_NOT_FOUND` (unknown, or not owned by this key; sandbox ids with live keys and the reverse), or `DOCUMENT_NOT_FOUND`.",
  },
  409: {
    description:
      "`IDEMPOTENCY_KEY_CONFLICT`: the key was used with another body (live keys). `IDEMPOTENCY_KEY_IN_USE`: the first request with this key is still running (Retry-After). " +
      "`FILING_EXISTS` (live submits only; the sandbox is stateless): the account already has a pending, submitted or accepted filing of this type for this company and `period_end`; " +
      "`details` has field `filing_id` with the existing filing's `filing_id`. Nothing was held or sent; filing again is allowed once that filing is rejected or error.",
  },
  413: { description: "`PAYLOAD_TOO_LARGE`: the body is larger than the limit (32 KiB by default)." },
  415: { description: "`UNSUPPORTED_MEDIA_TYPE`: the body is not `application/json`." },
  429: {
    description:
      "`RATE_LIMIT_EXCEEDED`: the per-minute or per-day limit is used up. (Extension) Also after too many failed authentications from the client's address " +
      "(30 a minute, 500 a day): then a failure answers 429 instead of 401, a valid key is still served, and a key this gateway has not seen lately waits in a short line of lookups, answered 429 when that line is full.",
    retryAfter: true,
  },
  502: {
    description:
      "`TAX_UNAVAILABLE`, `REGISTRY_UNAVAILABLE` or `TAX_AUTH_FAILED`: the authority could not take the filing; nothing was charged. " +
      "In doubt (`TAX_UNAVAILABLE` / `REGISTRY_UNAVAILABLE` whose `details` has field `filing_id` with `filing_id`, `filing_status` `pending` and `in_doubt` true): the submission may be at the authority and its answer was lost; " +
      "the filing exists and will be settled with the authority, never sent twice, and charged only if accepted. Follow it (`GET /filings/{filing_id}`, webhooks), or retry with the same Idempotency-Key and body after `Retry-After`: " +
      "the same 502 while in doubt, then 202 with this filing.",
    retryAfter: true,
  },
  503: {
    description:
      "`SERVICE_UNAVAILABLE`: a part of the platform is out of reach (e.g. the filing service); retry after `Retry-After` seconds.",
    retryAfter: true,
  },
};

/** An operation's own wording of some error statuses (the headers stay those of the status). */
export type ErrorDescriptions = Partial<Record<number, string>>;

/** The error responses of an operation, all in the error envelope. */
export function errorResponses(
  statuses: readonly number[],
  { authenticated, descriptions = {} }: { authenticated: boolean; descriptions?: ErrorDescriptions },
): Record<string, ResponseConfig> {
  const responses: Record<string, ResponseConfig> = {};
  for (const status of statuses) {
    const error = ERRORS[status];
    if (!error) throw new Error(`no description for error status ${status}`);
    responses[String(status)] = {
      description: descriptions[status] ?? error.description,
      headers: { ...REQUEST_ID, ...(authenticated ? RATE_LIMIT : {}), ...(error.retryAfter ? RETRY_AFTER : {}) },
      content: { "application/json": { schema: ErrorEnvelope } },
    };
  }
  return responses;
}

/** A JSON success response with the request id and rate-limit headers. */
export function jsonResponse(description: string, schema: z.ZodType, { authenticated }: { authenticated: boolean }): ResponseConfig {
  return {
    description,
    headers: { ...REQUEST_ID, ...(authenticated ? RATE_LIMIT : {}) },
    content: { "application/json": { schema } },
  };
}

/** The API key requirement of every authenticated operation. */
export const API_KEY_SECURITY = [{ ApiKeyAuth: [] }];

/** The answers of an authenticated JSON read: 200 with `data` in the success envelope, then the errors. */
export function readResponses(
  description: string,
  data: z.ZodType,
  errors: readonly number[],
  descriptions?: ErrorDescriptions,
): Record<string, ResponseConfig> {
  return {
    200: jsonResponse(description, successEnvelope(data), { authenticated: true }),
    ...errorResponses(errors, { authenticated: true, ...(descriptions ? { descriptions } : {}) }),
  };
}
