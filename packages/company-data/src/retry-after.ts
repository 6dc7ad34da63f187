/**
 * Reads an HTTP Retry-After header (RFC 9110 section 10.2.3): either a whole number of seconds
 * or an HTTP date. Returns whole seconds from `nowMs` (never negative), or undefined when the
 * header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds : undefined;
  }
  // Only the IMF-fixdate form the RFC requires senders to use ("Sun, 06 Nov 1994 08:49:37 GMT").
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
