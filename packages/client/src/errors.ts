import type { ApiErrorCode, ApiErrorDetail } from "./types.ts";

/** `code` of an answer that is not the API's error envelope (a proxy's HTML page, an empty body). */
export const UNEXPECTED_RESPONSE = "UNEXPECTED_RESPONSE";

export interface DormantApiErrorInit {
  status: number;
  code: ApiErrorCode | typeof UNEXPECTED_RESPONSE;
  message: string;
  details?: ApiErrorDetail[] | undefined;
  requestId?: string | undefined;
  retryAfterSeconds?: number | undefined;
  idempotencyKey?: string | undefined;
}

/**
 * Every failure answer of the API: the HTTP `status`, the envelope's `error.code`, `message` and
 * `details`, and the `request_id` (quote it to support). `retryAfterSeconds` is the Retry-After of
 * the last answer when it had one; `idempotencyKey` is the key a submit used (send it again to
 * retry the same submit later). `filingId` is the filing the error names (`details` field
 * `filing_id`): the existing filing of FILING_EXISTS, or, when `inDoubt`, the filing of a submit
 * whose answer was lost (502 TAX_UNAVAILABLE / REGISTRY_UNAVAILABLE): it exists, will be settled
 * with the authority and is never sent twice; follow it, or retry with the same key and body.
 */
export class DormantApiError extends Error {
  override readonly name = "DormantApiError";
  readonly status: number;
  readonly code: ApiErrorCode | typeof UNEXPECTED_RESPONSE;
  readonly details: ApiErrorDetail[];
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly idempotencyKey: string | undefined;
  /** The filing the error names in its `details` (field `filing_id`), if any. */
  readonly filingId: string | undefined;
  /** The submit is in doubt: `filingId` will be settled with the authority (README "When an answer is lost"). */
  readonly inDoubt: boolean;

  constructor(init: DormantApiErrorInit) {
    super(`${init.status} ${init.code}: ${init.message}`);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.idempotencyKey = init.idempotencyKey;
    const named = this.details.find((detail) => detail.field === "filing_id" && typeof detail.filing_id === "string");
    this.filingId = named?.filing_id;
    this.inDoubt = named?.in_doubt === true;
  }

  /** The error of a failure answer, from its body (the envelope, parsed or as text) and headers. */
  static fromResponse(response: Response, body: unknown, idempotencyKey?: string): DormantApiError {
    const envelope = asEnvelope(typeof body === "string" ? parseJson(body) : body);
    const retryAfter = Number(response.headers.get("retry-after"));
    const common = {
      status: response.status,
      requestId: envelope?.request_id ?? response.headers.get("x-request-id") ?? undefined,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has("retry-after") ? retryAfter : undefined,
      idempotencyKey,
    };
    if (envelope) return new DormantApiError({ ...common, ...envelope.error });
    const text = typeof body === "string" ? body.trim().slice(0, 200) : "";
    return new DormantApiError({
      ...common,
      code: UNEXPECTED_RESPONSE,
      message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""} without the API's error envelope${text ? `: ${text}` : ""}`,
    });
  }
}

interface Envelope {
  request_id?: string;
  error: { code: ApiErrorCode; message: string; details?: ApiErrorDetail[] };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The envelope `{ success: false, error: { code, message, details? }, request_id }`, or undefined. */
function asEnvelope(body: unknown): Envelope | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const { error } = body;
  if (typeof error !== "object" || error === null || !("code" in error) || typeof error.code !== "string") return undefined;
  const message = "message" in error && typeof error.message === "string" ? error.message : error.code;
  const details = "details" in error && Array.isArray(error.details) ? (error.details as ApiErrorDetail[]) : undefined;
  const requestId = "request_id" in body && typeof body.request_id === "string" ? body.request_id : undefined;
  return {
    ...(requestId === undefined ? {} : { request_id: requestId }),
    error: { code: error.code as ApiErrorCode, message, ...(details === undefined ? {} : { details }) },
  };
}
