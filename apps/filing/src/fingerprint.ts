import { createHash } from "node:crypto";

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
 * What "the same submit" means for the idempotency backstop: the filing type and the body
 * without its credentials (they arrive sealed under a fresh IV every time, and are never kept).
 * A plain SHA-256 suffices: everything hashed is stored in the filing row anyway.
 */
export function submitFingerprint(filingType: "ct600" | "accounts", filing: unknown): string {
  return createHash("sha256").update(`${filingType}\n${canonicalJson(filing)}`, "utf8").digest("hex");
}
