import { AccountApi } from "./account.ts";
import { CompaniesApi } from "./companies.ts";
import { DocumentsApi } from "./documents.ts";
import { FilingsApi } from "./filings.ts";
import { createHttp, type Http } from "./http.ts";
import type { RetryPolicy } from "./retry.ts";

export interface DormantClientOptions {
  /** `api_live_...` files for real; `api_test_...` selects the sandbox. */
  apiKey: string;
  /** The API's address: `https://host` or `https://host/api/v1`. */
  baseUrl: string;
  /** How 429/502/503 answers are retried (defaults: DEFAULT_RETRY_POLICY). */
  retry?: Partial<RetryPolicy>;
  /** Time limit of each attempt of a request. Default 30 000 ms. */
  requestTimeoutMs?: number;
  /** Another fetch (a proxy agent, instrumentation); the global fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The Dormant Company Filing API, typed from its OpenAPI document. */
export class DormantClient {
  readonly filings: FilingsApi;
  readonly documents: DocumentsApi;
  readonly account: AccountApi;
  readonly companies: CompaniesApi;
  /** The typed openapi-fetch client underneath, for endpoints this class does not wrap yet. */
  readonly http: Http;

  constructor(options: DormantClientOptions) {
    if (!options.apiKey) throw new TypeError("DormantClient needs an apiKey");
    if (!options.baseUrl) throw new TypeError("DormantClient needs a baseUrl");
    this.http = createHttp(options);
    this.filings = new FilingsApi(this.http);
    this.documents = new DocumentsApi(this.http);
    this.account = new AccountApi(this.http);
    this.companies = new CompaniesApi(this.http);
  }
}
