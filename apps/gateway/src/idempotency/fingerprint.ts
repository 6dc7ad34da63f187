import { createHmac } from "node:crypto";
import { canonicalJson } from "@dormant/service-kit";

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
