import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { AuthorityRequestError, AuthorityUnavailableError } from "./errors.ts";

/** Connection failures that happen before a byte of the request left: the authority has nothing. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * How long an idle kept-alive connection is kept when the authority announces no `Keep-Alive:
 * timeout=` (Node's agent honours the announced one, less a second, by itself). Undici, behind
 * `fetch`, which postXml used before, keeps them 4 s as well.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * One keep-alive agent per protocol for the process: polls reuse their connections. The agent's
 * `timeout` only closes idle connections in its pool; a request in flight is ended by its
 * signal (the breaker's timeout), never by the agent.
 */
const agents = {
  "http:": new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  "https:": new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

/** How much of a 403's body is read to tell a GovTalk refusal from an edge page. */
const REFUSAL_BODY_MAX_BYTES = 64 * 1024;

/** The root element of a GovTalk message (any prefix). */
const GOVTALK_ROOT = /<(?:[A-Za-z_][\w.-]*:)?GovTalkMessage[\s>]/;

/** Decodes an answer as `fetch`'s `text()` does: UTF-8, a leading BOM dropped, invalid bytes replaced. */
const utf8 = new TextDecoder("utf-8");

function errorCodes(error: unknown): string[] {
  if (typeof error !== "object" || error === null) return [];
  const own = "code" in error && typeof error.code === "string" ? [error.code] : [];
  const nested = "errors" in error && Array.isArray(error.errors) ? error.errors.flatMap(errorCodes) : [];
  const cause = "cause" in error ? errorCodes(error.cause) : [];
  return [...own, ...nested, ...cause];
}

/** Seconds of a numeric `Retry-After` header (HTTP dates are ignored). */
function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  if (typeof header !== "string" || !/^\d{1,6}$/.test(header.trim())) return undefined;
  const seconds = Number(header.trim());
  return seconds > 0 ? seconds : undefined;
}

/**
 * POSTs a GovTalk message and returns the answer's text. Aborting `signal` aborts the request
 * (connection included) and rejects with the signal's reason. HTTP 5xx and 429 reject with
 * AuthorityUnavailableError (the authority did not take the message), and so does a 403 whose
 * body is not a GovTalk message (an edge's "Access Denied" page: turned away before the
 * service, not received); a redirect (never followed) and a failed connection with
 * AuthorityUnavailableError("network"), `maybeReceived` unless it failed before anything was
 * sent; other non-2xx statuses (a 403 carrying a GovTalk answer included) with
 * AuthorityRequestError.
 *
 * Node's own HTTP client with a keep-alive agent, not `fetch`: the same requests and answers,
 * for about a third of the CPU per request (fetch's WHATWG streams, Request and Response objects
 * cost more than the exchange itself; measured in the README).
 */
export function postXml(url: string, xml: string, signal: AbortSignal): Promise<string> {
  const target = new URL(url);
  const host = target.host;
  const agent = agents[target.protocol as keyof typeof agents];
  if (!agent) return Promise.reject(new TypeError(`postXml: unsupported protocol ${target.protocol} (http: or https:)`));
  const body = Buffer.from(xml, "utf8");
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const fail = (error: unknown) => settle(() => reject(error));
    /** A connection failure: the signal's reason when aborted, else classified by where it failed. */
    const connectionFailed = (error: unknown, answerStarted: boolean) => {
      if (signal.aborted) return fail(signal.reason);
      if (answerStarted) {
        return fail(new AuthorityUnavailableError("network", `the answer from ${host} broke off`, { maybeReceived: true, cause: error }));
      }
      const codes = errorCodes(error);
      const notSent = codes.some((code) => NOT_SENT_CODES.has(code));
      fail(
        new AuthorityUnavailableError("network", `connection to ${host} failed${codes.length ? ` (${codes.join(", ")})` : ""}`, {
          maybeReceived: !notSent,
          cause: error,
        }),
      );
    };
    /**
     * HTTP 403: a GovTalk answer is the authority refusing our request (AuthorityRequestError);
     * anything else (HMRC's edge answers an HTML "Access Denied" page) is its edge turning the
     * request away before the service: unavailable for now, not received.
     */
    const readEdgeRefusal = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const classify = () => {
        const text = utf8.decode(Buffer.concat(chunks));
        if (GOVTALK_ROOT.test(text)) return fail(new AuthorityRequestError(403, `${host} refused the request with HTTP 403`));
        fail(
          new AuthorityUnavailableError(
            "http_status",
            `${host} answered HTTP 403 with a page that is not GovTalk (its edge turned the request away)`,
            {
              maybeReceived: false,
              status: 403,
              retryAfterSeconds: retryAfterSeconds(response.headers["retry-after"]),
            },
          ),
        );
      };
      response.on("data", (chunk: Buffer) => {
        if (length < REFUSAL_BODY_MAX_BYTES) chunks.push(chunk);
        length += chunk.length;
      });
      response.on("end", classify);
      response.on("error", () => (signal.aborted ? fail(signal.reason) : classify()));
      response.on("close", () => (signal.aborted ? fail(signal.reason) : classify()));
    };
    const onAnswer = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 500 || status === 429) {
        response.resume();
        return fail(
          new AuthorityUnavailableError("http_status", `${host} answered HTTP ${status}`, {
            maybeReceived: false,
            status,
            retryAfterSeconds: retryAfterSeconds(response.headers["retry-after"]),
          }),
        );
      }
      if (status >= 300 && status < 400) {
        response.resume();
        return fail(
          new AuthorityUnavailableError("network", `${host} answered a redirect (HTTP ${status}), which is not followed`, {
            maybeReceived: true,
          }),
        );
      }
      if (status === 403) return readEdgeRefusal(response);
      if (status < 200 || status >= 300) {
        response.resume();
        return fail(new AuthorityRequestError(status, `${host} refused the request with HTTP ${status}`));
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => settle(() => resolve(utf8.decode(Buffer.concat(chunks)))));
      response.on("error", (error) => connectionFailed(error, true));
      response.on("close", () => {
        if (!response.complete) connectionFailed(new Error("the connection closed before the answer was complete"), true);
      });
    };
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const outgoing = send(
      target,
      {
        method: "POST",
        agent,
        signal,
        headers: { "content-type": "text/xml; charset=utf-8", accept: "text/xml, application/xml", "content-length": String(body.length) },
      },
      onAnswer,
    );
    outgoing.on("error", (error) => connectionFailed(error, false));
    outgoing.end(body);
  });
}
