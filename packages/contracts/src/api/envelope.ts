import { z } from "zod";
import { ErrorCode, ErrorDetail } from "../errors.ts";
import { FilingStatus } from "./primitives.ts";

/**
 * The common response envelope (spec section 2) and the error envelope (section 7). Every
 * response except `GET /health` is wrapped: `{ success, data | error, request_id? }`.
 */

export const RequestId = z.uuid().meta({
  description: "The id of this request (also in the `X-Request-Id` header); quote it when asking for support.",
  example: "3f0c1b7e-2f4d-4c59-9a4e-8d7a1c0b5e21",
});

export const ApiErrorDetail = ErrorDetail.extend({
  filing_id: z.string().optional().meta({
    description:
      "The filing the error is about: the existing filing (`FILING_EXISTS`), or the filing of a submit in doubt (502 `TAX_UNAVAILABLE` / `REGISTRY_UNAVAILABLE` with field `filing_id`): it exists, will be settled with the authority and is never sent twice.",
    example: "fil_8Zk3v1mQ2xR7",
  }),
  filing_status: FilingStatus.optional().meta({
    description: "With `filing_id` on a submit in doubt: the filing's status when the answer was given (`pending`).",
  }),
  in_doubt: z.literal(true).optional().meta({
    description:
      "With `filing_id`: the submission may be at the authority and its answer was lost. Follow the filing (`GET /filings/{filing_id}`, webhooks) or retry with the same Idempotency-Key and body: the retry answers the same 502 while in doubt, then 202 with this filing, sending nothing twice.",
  }),
})
  .catchall(z.unknown())
  .meta({
    id: "ErrorDetail",
    description:
      "One problem: `field` is the path of the offending field (`credentials.government_gateway_password`, `period_end`, query parameter `limit`, header `Idempotency-Key`). Some codes add fields, e.g. `required` and `available` for `balance`, `filing_id` for `FILING_EXISTS` and for a submit in doubt.",
  });

export const ApiError = z
  .object({
    code: ErrorCode,
    message: z.string(),
    details: z.array(ApiErrorDetail).optional(),
  })
  .meta({ id: "Error", description: "What went wrong: a stable `code`, a human `message` and optional field `details`." });
export type ApiError = z.infer<typeof ApiError>;

export const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: ApiError,
    request_id: RequestId,
  })
  .meta({ id: "ErrorEnvelope", description: "Every error response." });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** `{ success: true, data }` for reads. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

/** `{ success: true, data, request_id }` for submits, which always carry the request id. */
export function submitEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, request_id: RequestId });
}
