import { createHash, createHmac, type KeyObject } from "node:crypto";
import { SANDBOX_FILING_ID_PATTERN, type FilingType } from "@dormant/contracts";
import { canonicalJson } from "@dormant/service-kit";

export interface SandboxFilingRef {
  filingId: string;
  filingType: FilingType;
  companyNumber: string;
  hash: string;
}

/**
 * `fil_test_{type}_{company}_{hash}`: the hash is the first 16 hex digits of HMAC-SHA256 over
 * the Idempotency-Key and the canonical JSON of the validated body (key order does not matter),
 * so the same key and body always give the same id and any difference gives another (sandbox
 * rule 5). The body holds credentials, which callers may well try out in the sandbox: keyed by a
 * server secret, the id cannot be used to test guesses of them. Every replica shares the secret,
 * so ids stay deterministic across the fleet.
 */
export function sandboxFilingId(
  secret: string | KeyObject,
  filingType: FilingType,
  companyNumber: string,
  idempotencyKey: string,
  body: unknown,
): string {
  const hash = createHmac("sha256", secret)
    .update(`sandbox-filing-id\n${filingType}\n${idempotencyKey}\n${canonicalJson(body)}`, "utf8")
    .digest("hex")
    .slice(0, 16);
  return `fil_test_${filingType}_${companyNumber}_${hash}`;
}

/** The parts of a sandbox filing id, or undefined when it is not one. */
export function parseSandboxFilingId(filingId: string): SandboxFilingRef | undefined {
  const match = SANDBOX_FILING_ID_PATTERN.exec(filingId);
  if (!match) return undefined;
  const [, filingType, companyNumber, hash] = match as unknown as [string, FilingType, string, string];
  return { filingId, filingType, companyNumber, hash };
}

/** A deterministic upper-case hex reference derived from the id, e.g. for SANDBOX-CORR-<hex>. */
export function sandboxReference(ref: SandboxFilingRef, purpose: "CORR" | "IRU" | "SUB", hexDigits: number): string {
  const hex = createHash("sha256").update(`${purpose}:${ref.filingId}`, "utf8").digest("hex").slice(0, hexDigits).toUpperCase();
  return `SANDBOX-${purpose}-${hex}`;
}
