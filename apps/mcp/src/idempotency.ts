import { createHmac } from "node:crypto";
import { canonicalJson } from "@dormant/service-kit";

/** The gateway's limit on an Idempotency-Key. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 64;

/**
 * The Idempotency-Key of a submit the caller gave none for: the same tool with the same arguments
 * (canonical JSON, key order ignored) and the same API key always gives the same key, so a
 * repeated identical submit is answered with the first one's filing for as long as the gateway
 * keeps its record (24 hours from the first). It is an HMAC keyed by the API key, not a plain
 * hash: the arguments carry low-entropy passwords, and the key travels to the gateway and back
 * into tool results, where a plain hash could be used to test guesses.
 */
export function deriveIdempotencyKey(apiKey: string, tool: string, args: Record<string, unknown>): string {
  const digest = createHmac("sha256", apiKey)
    .update(`dormant-mcp:v1:${tool}\n${canonicalJson(args)}`, "utf8")
    .digest("hex");
  return `mcp-${digest.slice(0, MAX_IDEMPOTENCY_KEY_LENGTH - 4)}`;
}

/** The caller's own key when it passed one, else the derived one (from the arguments without it). */
export function submitIdempotencyKey<Args extends { idempotency_key?: string | undefined }>(
  apiKey: string,
  tool: string,
  args: Args,
): { key: string; body: Omit<Args, "idempotency_key">; derived: boolean } {
  const { idempotency_key: given, ...body } = args;
  if (given !== undefined) return { key: given, body, derived: false };
  return { key: deriveIdempotencyKey(apiKey, tool, body), body, derived: true };
}
