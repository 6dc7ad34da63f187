/**
 * Client for the registry public data API (company profile, officers, filing history).
 *
 * - Basic auth: the API key is the user name, the password is empty.
 * - Every call is bounded by `timeoutMs` (AbortSignal.timeout, which also aborts a body that
 *   stalls half-way) and may be cut short by the caller's own `signal`.
 * - Every answer is validated against the schemas in schemas.ts before it is returned.
 * - 404 -> CompanyNotFoundError; anything else that is not a valid 2xx answer ->
 *   RegistryUnavailableError with a `reason`, `retryable` and Retry-After when given.
 * - The client neither retries nor caches: retry policy and the 600 requests / 5 minutes budget
 *   belong to the caller (a breaker and a cache in the filing service).
 */
import type { z } from "zod";
import { CompanyNotFoundError, RegistryUnavailableError } from "./errors.ts";
import { parseRetryAfter } from "./retry-after.ts";
import {
  companyProfileSchema,
  filingHistorySchema,
  officerListSchema,
  type CompanyProfile,
  type FilingHistory,
  type OfficerList,
} from "./schemas.ts";

export interface RegistryDataClientOptions {
  /** e.g. https://api.company-information.service.gov.uk, or the simulator's base URL. */
  baseUrl: string;
  apiKey: string;
  /** Upper bound for one request, from sending it to the end of the body. */
  timeoutMs: number;
  /** Defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export interface RegistryRequestOptions {
  /** Aborts the request early (RegistryUnavailableError with reason "aborted"). */
  signal?: AbortSignal;
}

export interface FilingHistoryQuery extends RegistryRequestOptions {
  category: "accounts";
}

export interface RegistryDataClient {
  /** `GET /company/{number}` */
  getCompany(companyNumber: string, options?: RegistryRequestOptions): Promise<CompanyProfile>;
  /** `GET /company/{number}/officers` (first page: the registry's default page size). */
  getOfficers(companyNumber: string, options?: RegistryRequestOptions): Promise<OfficerList>;
  /** `GET /company/{number}/filing-history?category=...` (first page, newest first). */
  getFilingHistory(companyNumber: string, query: FilingHistoryQuery): Promise<FilingHistory>;
}

function checkOptions(options: RegistryDataClientOptions): URL {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch (cause) {
    throw new TypeError("registry baseUrl must be an absolute URL", { cause });
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new TypeError("registry baseUrl must use http or https");
  }
  if (base.search !== "" || base.hash !== "") {
    throw new TypeError("registry baseUrl must not carry a query or fragment");
  }
  if (options.apiKey.length === 0) throw new TypeError("registry apiKey must not be empty");
  if (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new RangeError("registry timeoutMs must be a positive integer");
  }
  return base;
}

export function createRegistryDataClient(options: RegistryDataClientOptions): RegistryDataClient {
  const base = checkOptions(options);
  const basePath = base.pathname.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const authorization = `Basic ${Buffer.from(`${options.apiKey}:`, "utf8").toString("base64")}`;

  function urlFor(companyNumber: string, suffix: string, query?: Record<string, string>): URL {
    const url = new URL(base.origin);
    url.pathname = `${basePath}/company/${encodeURIComponent(companyNumber)}${suffix}`;
    if (query !== undefined) url.search = new URLSearchParams(query).toString();
    return url;
  }

  async function getJson<Schema extends z.ZodType>(
    url: URL,
    companyNumber: string,
    schema: Schema,
    callerSignal: AbortSignal | undefined,
  ): Promise<z.output<Schema>> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = callerSignal === undefined ? timeout : AbortSignal.any([timeout, callerSignal]);
    const what = `registry GET ${url.pathname}${url.search}`;

    // The same classification for a failure before the answer and one while reading the body.
    const transportFailure = (cause: unknown, status?: number) => {
      if (timeout.aborted) {
        return new RegistryUnavailableError({
          reason: "timeout",
          message: `${what}: no answer within ${options.timeoutMs} ms`,
          status,
          cause,
        });
      }
      if (callerSignal?.aborted === true) {
        return new RegistryUnavailableError({ reason: "aborted", message: `${what}: aborted`, status, cause });
      }
      return new RegistryUnavailableError({
        reason: "network",
        message: `${what}: ${cause instanceof Error ? cause.message : "network failure"}`,
        status,
        cause,
      });
    };

    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: "GET",
        headers: { authorization, accept: "application/json" },
        signal,
      });
    } catch (cause) {
      throw transportFailure(cause);
    }

    if (!response.ok) {
      // Release the connection; the error body is of no use to us.
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 404) throw new CompanyNotFoundError(companyNumber);
      const status = response.status;
      const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"), Date.now());
      const reason =
        status === 429
          ? "rate-limited"
          : status >= 500
            ? "server-error"
            : status === 401 || status === 403
              ? "unauthorised"
              : "unexpected-status";
      throw new RegistryUnavailableError({
        reason,
        message: `${what}: HTTP ${status}`,
        status,
        retryAfterSeconds,
      });
    }

    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      throw transportFailure(cause, response.status);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw new RegistryUnavailableError({
        reason: "bad-response",
        message: `${what}: bad response, the body is not JSON`,
        status: response.status,
        cause,
      });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const where = parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
        .join("; ");
      throw new RegistryUnavailableError({
        reason: "bad-response",
        message: `${what}: bad response, ${where}`,
        status: response.status,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  return {
    getCompany(companyNumber, requestOptions) {
      return getJson(urlFor(companyNumber, ""), companyNumber, companyProfileSchema, requestOptions?.signal);
    },
    getOfficers(companyNumber, requestOptions) {
      return getJson(urlFor(companyNumber, "/officers"), companyNumber, officerListSchema, requestOptions?.signal);
    },
    getFilingHistory(companyNumber, query) {
      return getJson(
        urlFor(companyNumber, "/filing-history", { category: query.category }),
        companyNumber,
        filingHistorySchema,
        query.signal,
      );
    },
  };
}
