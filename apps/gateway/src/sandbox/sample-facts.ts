import { createHash } from "node:crypto";
import { SANDBOX_COMPANY_NAME, sandboxJurisdiction } from "@dormant/company-data";
import type { DormantAccountsInput, RegistryJurisdiction } from "@dormant/documents";
import type { SandboxFilingRef } from "./filing-id.ts";

/**
 * The facts of a sandbox filing's sample documents. The sandbox stores nothing, so a download
 * cannot see the body that was submitted: everything here is what the filing id carries (its
 * type and company number) or sample data, derived from the id alone so that every replica
 * renders the same bytes for the same id, and the sizes a list shows are the sizes downloaded.
 */
export interface SampleFacts {
  companyName: string;
  companyNumber: string;
  /** 10 digits derived from the id. */
  utr: string;
  periodStart: string;
  periodEnd: string;
  /** CT600 declarant, and the director approving the accounts. */
  directorName: string;
  /** The accounts' approval date (after the period end). */
  approvalDate: string;
  jurisdiction: RegistryJurisdiction;
  /** The sample documents' generation time, fixed so that they are byte-for-byte reproducible. */
  generatedAt: string;
}

const SAMPLE_PERIOD = { start: "2025-04-01", end: "2026-03-31" } as const;
const SAMPLE_APPROVAL_DATE = "2026-04-30";
const SAMPLE_GENERATED_AT = "2026-05-01T09:00:00Z";
const SAMPLE_DIRECTOR = "Sandbox Director";

/** 10 decimal digits from a hash of the id: the same id always has the same sample UTR. */
function sampleUtr(filingId: string): string {
  const digest = createHash("sha256").update(`sandbox-utr:${filingId}`, "utf8").digest();
  return (digest.readBigUInt64BE(0) % 10_000_000_000n).toString().padStart(10, "0");
}

export function sampleFacts(ref: SandboxFilingRef): SampleFacts {
  return {
    companyName: SANDBOX_COMPANY_NAME,
    companyNumber: ref.companyNumber,
    utr: sampleUtr(ref.filingId),
    periodStart: SAMPLE_PERIOD.start,
    periodEnd: SAMPLE_PERIOD.end,
    directorName: SAMPLE_DIRECTOR,
    approvalDate: SAMPLE_APPROVAL_DATE,
    jurisdiction: sandboxJurisdiction(ref.companyNumber),
    generatedAt: SAMPLE_GENERATED_AT,
  };
}

/** The sample accounts: 100 pounds of share capital held as cash, nothing else (amounts in pence). */
export function sampleAccountsInput(facts: SampleFacts): DormantAccountsInput {
  return {
    companyName: facts.companyName,
    companyNumber: facts.companyNumber,
    registryCompanyType: "ltd",
    jurisdiction: facts.jurisdiction,
    periodStart: facts.periodStart,
    periodEnd: facts.periodEnd,
    approvalDate: facts.approvalDate,
    directorName: facts.directorName,
    directorPosition: "Director",
    current: { cash: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 0 },
  };
}
