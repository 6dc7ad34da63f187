import { createHmac } from "node:crypto";

/** JSON with object keys sorted at every depth, so that key order never changes the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

/**
 * What "the same request" means for idempotency: method, path and the canonical JSON of the
 * parsed body, hashed with SHA-256 keyed by a server secret (HMAC). The key matters because
 * bodies carry low-entropy third-party passwords: a plain hash kept in Redis for 24 hours could
 * be used to test guesses.
 */
export function requestFingerprint(request: { method: string; path: string; body: unknown }, secret: string): string {
  return createHmac("sha256", secret)
    .update(`${request.method.toUpperCase()}\n${request.path}\n${canonicalJson(request.body)}`, "utf8")
    .digest("hex");
}
