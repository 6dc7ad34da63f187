import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "../safety/url-safety.ts";

/** An idle kept-alive connection to an endpoint is closed after this long (below Node's 5 s server keep-alive). */
const IDLE_CONNECTION_MS = 4_000;
/** Agents kept at most (one per address attempts connect to); past that they are all closed and started afresh. */
const MAX_AGENTS = 256;

/**
 * Keep-alive agents, one per (scheme, checked address): a connection is reused only for the
 * address it was opened to, which url-safety checked, and within an agent only for the same host
 * name and port (Node keys its pool by them and by the TLS options), whose certificate was
 * verified when it was opened. Before, every attempt opened a new connection (a TLS handshake and
 * a new secure context each).
 */
const agents = new Map<string, http.Agent>();

function agentFor(protocol: string, address: ResolvedAddress): http.Agent {
  const key = `${protocol}${address.family}:${address.address}`;
  let agent = agents.get(key);
  if (!agent) {
    if (agents.size >= MAX_AGENTS) closeWebhookConnections();
    const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, maxFreeSockets: 16 };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Closes every kept-alive connection to endpoints (they are also closed when idle, and never keep the process alive). */
export function closeWebhookConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** At most this much of an endpoint's answer is kept (issue 14: 1 KiB). */
export const RESPONSE_BODY_LIMIT_BYTES = 1024;

export interface AttemptRequest {
  url: URL;
  /** The address checked by url-safety: the connection goes there, whatever DNS says now. */
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export interface AttemptResult {
  /** The endpoint's HTTP status, when it answered in time. */
  statusCode?: number;
  /** Why the attempt failed without an HTTP answer (or with a redirect). */
  error?: string;
  /** At most 1 KiB of the answer's body (UTF-8, NUL characters dropped). */
  responseBody?: string;
  durationMs: number;
  delivered: boolean;
}

/** The first RESPONSE_BODY_LIMIT_BYTES bytes as text that fits in that many bytes once encoded. */
export function clipResponseBody(bytes: Buffer): string {
  let text = bytes.subarray(0, RESPONSE_BODY_LIMIT_BYTES).toString("utf8").replaceAll(String.fromCharCode(0), "");
  while (Buffer.byteLength(text, "utf8") > RESPONSE_BODY_LIMIT_BYTES) text = text.slice(0, -1);
  return text;
}

/**
 * One POST of a webhook with node:http(s) (never following redirects: a 3xx is a failed attempt).
 * The connection goes to `address` (a custom lookup), TLS still checks the certificate against the
 * URL's host name. The whole attempt (connect, answer, the first KiB of body) is bounded by
 * `timeoutMs`; a 2xx within it delivers. A connection whose answer was read to its end is kept
 * for the next attempt to the same address and host (agentFor); any other (timed out, cut short,
 * failed) is closed. Never throws.
 */
export function postWebhook(request: AttemptRequest, signal?: AbortSignal): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const lookup: LookupFunction = (_hostname, options, callback) => {
    const { address, family } = request.address;
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const transport = request.url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let received = 0;
    let statusCode: number | undefined;
    /** `reusable`: the answer was read to its end, so the connection may serve the next attempt. */
    const finish = (result: Omit<AttemptResult, "durationMs">, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (!reusable) req.destroy();
      resolve({ ...result, durationMs: elapsed() });
    };
    const answered = (error?: string, reusable = false) => {
      const code = statusCode ?? 0;
      const body = clipResponseBody(Buffer.concat(chunks));
      const delivered = code >= 200 && code < 300;
      finish(
        {
          statusCode: code,
          delivered,
          ...(body ? { responseBody: body } : {}),
          ...(delivered ? {} : { error: error ?? (code >= 300 && code < 400 ? `redirect (HTTP ${code}) not followed` : `HTTP ${code}`) }),
        },
        reusable,
      );
    };
    const timer = setTimeout(() => {
      // Headers already in: the status counts, the body is cut short.
      if (statusCode !== undefined) answered();
      else finish({ delivered: false, error: `timed out after ${request.timeoutMs} ms` });
    }, request.timeoutMs);
    const onAbort = () => finish({ delivered: false, error: "attempt abandoned (the notifier is stopping)" });
    signal?.addEventListener("abort", onAbort, { once: true });

    const req = transport.request(request.url, {
      method: "POST",
      headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      lookup,
      agent: agentFor(request.url.protocol, request.address),
    });
    req.on("response", (res) => {
      statusCode = res.statusCode ?? 0;
      res.on("data", (chunk: Buffer) => {
        if (received < RESPONSE_BODY_LIMIT_BYTES) chunks.push(chunk);
        received += chunk.length;
        if (received >= RESPONSE_BODY_LIMIT_BYTES) answered();
      });
      res.on("end", () => answered(undefined, true));
      res.on("error", () => answered());
      res.on("aborted", () => answered());
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (statusCode !== undefined) return answered();
      finish({ delivered: false, error: describeNetworkError(error) });
    });
    req.end(request.body);
  });
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "ETIMEDOUT":
      return "connection timed out";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    default:
      return error.code ? `network error (${error.code})` : `network error: ${error.message.slice(0, 200)}`;
  }
}
