import type { AccountsSubmitResponse, ApiError, Ct600SubmitResponse, Filing, FilingsList } from "@dormant/contracts";

export type FilingKind = "ct600" | "accounts";

/** One answer of the public API, parsed: the envelope's `data` or `error`. */
export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  data?: T;
  error?: ApiError;
  requestId?: string;
  /** From sending the request to the end of the body. */
  elapsedMs: number;
}

export type SubmitData = Ct600SubmitResponse | AccountsSubmitResponse;

export interface AccountView {
  account_id: string;
  mode: "live" | "test";
  balance: string;
  held: string;
  available: string;
  currency: string;
}

/** A client of the gateway's `/api/v1` with one API key, as a formation agent would use it. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  withKey(apiKey: string): ApiClient {
    return new ApiClient(this.baseUrl, apiKey);
  }

  submit(kind: FilingKind, body: unknown, idempotencyKey: string): Promise<ApiAnswer<SubmitData>> {
    return this.request("POST", `/filings/${kind}`, { body, idempotencyKey });
  }

  getFiling(filingId: string): Promise<ApiAnswer<Filing>> {
    return this.request("GET", `/filings/${encodeURIComponent(filingId)}`);
  }

  listFilings(query: Record<string, string | number> = {}): Promise<ApiAnswer<FilingsList>> {
    const params = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
    return this.request("GET", `/filings${params.size > 0 ? `?${params}` : ""}`);
  }

  /** Every filing of the key (pages of 100). */
  async allFilings(query: Record<string, string> = {}): Promise<FilingsList["filings"]> {
    const filings: FilingsList["filings"] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await this.listFilings({ ...query, limit: 100, offset });
      if (page.status !== 200 || !page.data) throw new Error(`GET /filings answered ${page.status}: ${JSON.stringify(page.error)}`);
      filings.push(...page.data.filings);
      if (!page.data.pagination.has_more) return filings;
    }
  }

  listDocuments(
    filingId: string,
  ): Promise<ApiAnswer<{ filing_id: string; documents: Array<{ type: string; name: string; size_bytes: number }> }>> {
    return this.request("GET", `/filings/${encodeURIComponent(filingId)}/documents`);
  }

  account(): Promise<ApiAnswer<AccountView>> {
    return this.request("GET", "/account");
  }

  async request<T>(method: string, path: string, options: { body?: unknown; idempotencyKey?: string } = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { "x-api-key": this.apiKey };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
    const started = performance.now();
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    const elapsedMs = performance.now() - started;
    let envelope: { data?: T; error?: ApiError; request_id?: string } = {};
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      // not JSON (never expected from /api/v1): keep status and headers
    }
    return {
      status: response.status,
      headers: response.headers,
      elapsedMs,
      ...(envelope.data === undefined ? {} : { data: envelope.data }),
      ...(envelope.error === undefined ? {} : { error: envelope.error }),
      ...(envelope.request_id === undefined ? {} : { requestId: envelope.request_id }),
    };
  }
}
