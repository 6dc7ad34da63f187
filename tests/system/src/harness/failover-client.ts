import { type ApiAnswer, ApiClient } from "./api-client.ts";

/** True when the request never reached a server: nothing listens at the address (a dead replica). */
function refused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return cause?.code === "ECONNREFUSED";
}

/**
 * A client of several gateway replicas, as behind a load balancer: each request goes to the
 * preferred gateway, and to the next one when the preferred one refuses the connection (it is
 * gone). A gateway that refused once is taken out of rotation for good, as a load balancer's
 * health check would (its port may later be taken by some other process on this machine). A
 * request cut off in the middle is not sent elsewhere: it fails, and the caller retries it as any
 * client does (with the same Idempotency-Key), which then reaches a live gateway.
 */
export class FailoverApiClient extends ApiClient {
  constructor(
    private readonly urls: readonly string[],
    apiKey: string,
    private readonly preferred = 0,
  ) {
    const first = urls[preferred];
    if (!first) throw new Error(`no gateway ${preferred} among ${urls.length}`);
    super(first, apiKey);
  }

  /** Requests that went to a gateway other than the preferred one. */
  failedOver = 0;
  /** Gateways that refused a connection: never asked again. */
  private readonly down = new Set<string>();

  override async request<T>(
    method: string,
    path: string,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<ApiAnswer<T>> {
    let lastError: unknown;
    for (let step = 0; step < this.urls.length; step++) {
      const url = this.urls[(this.preferred + step) % this.urls.length]!;
      if (this.down.has(url)) continue;
      try {
        const answer = await new ApiClient(url, this.apiKey).request<T>(method, path, options);
        if (step > 0) this.failedOver += 1;
        return answer;
      } catch (error) {
        if (!refused(error)) throw error;
        this.down.add(url);
        lastError = error;
      }
    }
    throw lastError ?? new Error("every gateway is down");
  }
}
