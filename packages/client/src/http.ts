import createClient, { type Client } from "openapi-fetch";
import { DormantApiError } from "./errors.ts";
import type { paths } from "./generated/api.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy, sendWithRetry } from "./retry.ts";

/** The typed HTTP client of the API's paths (openapi-fetch over the generated `paths`). */
export type Http = Client<paths>;

export const API_PREFIX = "/api/v1";

export interface HttpOptions {
  apiKey: string;
  baseUrl: string;
  retry?: Partial<RetryPolicy> | undefined;
  /** Per attempt; default 30 000 ms. */
  requestTimeoutMs?: number | undefined;
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

/** `https://host`, `https://host/` and `https://host/api/v1` all name the same API root. */
export function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith(API_PREFIX) ? trimmed : `${trimmed}${API_PREFIX}`;
}

export function createHttp(options: HttpOptions): Http {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const send = options.fetch ?? ((request: Request) => fetch(request));
  return createClient<paths>({
    baseUrl: apiRoot(options.baseUrl),
    headers: { "X-API-Key": options.apiKey },
    fetch: (request) =>
      sendWithRetry(request, {
        policy,
        fetch: (attempt) => send(new Request(attempt, { signal: AbortSignal.any([attempt.signal, AbortSignal.timeout(timeoutMs)]) })),
      }),
  });
}

interface FetchResult<Body> {
  data?: Body;
  error?: unknown;
  response: Response;
}

/** The `data` of a success envelope, or a DormantApiError for any other answer. */
export async function dataOf<Body extends { data: unknown }>(
  call: Promise<FetchResult<Body>>,
  idempotencyKey?: string,
): Promise<Body["data"]> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw DormantApiError.fromResponse(response, error, idempotencyKey);
  return data.data;
}
