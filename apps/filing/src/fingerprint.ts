import { createHash } from "node:crypto";
import { canonicalJson } from "@dormant/service-kit";

/**
 * What "the same submit" means for the idempotency backstop: the filing type and the body
 * without its credentials (they arrive sealed under a fresh IV every time, and are never kept).
 * A plain SHA-256 suffices: everything hashed is stored in the filing row anyway.
 */
export function submitFingerprint(filingType: "ct600" | "accounts", filing: unknown): string {
  return createHash("sha256")
    .update(`${filingType}\n${canonicalJson(filing)}`, "utf8")
    .digest("hex");
}
