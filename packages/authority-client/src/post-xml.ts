import { AuthorityRequestError, AuthorityUnavailableError } from "./errors.ts";

/** Connection failures that happen before a byte of the request left: the authority has nothing. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

function errorCodes(error: unknown): string[] {
  if (typeof error !== "object" || error === null) return [];
  const own = "code" in error && typeof error.code === "string" ? [error.code] : [];
  const nested = "errors" in error && Array.isArray(error.errors) ? error.errors.flatMap(errorCodes) : [];
  const cause = "cause" in error ? errorCodes(error.cause) : [];
  return [...own, ...nested, ...cause];
}

/** Seconds of a numeric `Retry-After` header (HTTP dates are ignored). */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return undefined;
  const seconds = Number(header.trim());
  return seconds > 0 ? seconds : undefined;
}

/**
 * POSTs a GovTalk message and returns the answer's text. Aborting `signal` aborts the request
 * (connection included) and rejects with the signal's reason. HTTP 5xx and 429 reject with
 * AuthorityUnavailableError (the authority did not take the message); other non-2xx statuses
 * with AuthorityRequestError; a failed connection with AuthorityUnavailableError("network"),
 * `maybeReceived` unless it failed before anything was sent.
 */
export async function postXml(url: string, xml: string, signal: AbortSignal): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8", accept: "text/xml, application/xml" },
      body: xml,
      signal,
      redirect: "error",
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const codes = errorCodes(error);
    const notSent = codes.some((code) => NOT_SENT_CODES.has(code));
    throw new AuthorityUnavailableError("network", `connection to ${new URL(url).host} failed${codes.length ? ` (${codes.join(", ")})` : ""}`, {
      maybeReceived: !notSent,
      cause: error,
    });
  }
  if (response.status >= 500 || response.status === 429) {
    await response.body?.cancel().catch(() => undefined);
    throw new AuthorityUnavailableError("http_status", `${new URL(url).host} answered HTTP ${response.status}`, {
      maybeReceived: false,
      status: response.status,
      retryAfterSeconds: retryAfterSeconds(response.headers.get("retry-after")),
    });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new AuthorityRequestError(response.status, `${new URL(url).host} refused the request with HTTP ${response.status}`);
  }
  try {
    return await response.text();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new AuthorityUnavailableError("network", `the answer from ${new URL(url).host} broke off`, { maybeReceived: true, cause: error });
  }
}
