import type { FilingErrorCode } from "./filing-error.ts";
import type { SandboxOutcome } from "./sandbox.ts";

/**
 * The sandbox's company table, as data: the one home of what a company number decides. The
 * gateway's sandbox (test keys) answers `outcome` from it; the authority simulator plays
 * `scenario` at the authorities for live filings of the same numbers, so that a test key and a
 * live key against the simulator tell the same story.
 */

/** The authorities' behaviours the simulator can play (its own table maps each to answers). */
export const SANDBOX_SCENARIO_NAMES = [
  "accepted",
  "accepted-immediately",
  "utr-mismatch",
  "already-filed",
  "gateway-timeout",
  "company-dissolved",
  "auth-code-invalid",
  "parked-then-accepted",
  "internal-failure",
  "company-not-found",
] as const;
export type SandboxScenarioName = (typeof SANDBOX_SCENARIO_NAMES)[number];

export type SandboxJurisdiction = "England/Wales" | "Scotland" | "Northern Ireland";

export interface SandboxCompany {
  jurisdiction: SandboxJurisdiction;
  /** What the authorities do with a live filing of this number (the simulator). */
  scenario: SandboxScenarioName;
  /** The final status a test key's filing reports when polled. */
  outcome: SandboxOutcome;
  /** 00000005: the outcome is ready at once (every sandbox outcome is, on the first poll). */
  immediate: boolean;
  reason: string;
  /** The filing's `error` for rejected and error outcomes. */
  error?: { code: FilingErrorCode; message: string };
  /** False for the platform's own rows, which the public spec's table does not list. */
  inSpec: boolean;
}

/** The spec's sandbox table, then the platform's extension rows. */
export const SANDBOX_COMPANIES: Readonly<Record<string, SandboxCompany>> = {
  "00000001": {
    jurisdiction: "England/Wales",
    scenario: "accepted",
    outcome: "accepted",
    immediate: false,
    reason: "standard success",
    inSpec: true,
  },
  "00000002": {
    jurisdiction: "England/Wales",
    scenario: "utr-mismatch",
    outcome: "rejected",
    immediate: false,
    reason: "UTR does not match company records",
    error: { code: "TAX_UTR_MISMATCH", message: "The UTR does not match the company's records (sandbox)" },
    inSpec: true,
  },
  "00000003": {
    jurisdiction: "England/Wales",
    scenario: "already-filed",
    outcome: "rejected",
    immediate: false,
    reason: "period already filed",
    error: { code: "PERIOD_ALREADY_FILED", message: "A filing for this period was already made (sandbox)" },
    inSpec: true,
  },
  "00000004": {
    jurisdiction: "England/Wales",
    scenario: "gateway-timeout",
    outcome: "error",
    immediate: false,
    reason: "gateway time-out (for retry tests)",
    error: { code: "GATEWAY_TIMEOUT", message: "The authority did not answer in time; submitting again is safe (sandbox)" },
    inSpec: true,
  },
  "00000005": {
    jurisdiction: "England/Wales",
    scenario: "accepted-immediately",
    outcome: "accepted",
    immediate: true,
    reason: "immediate success",
    inSpec: true,
  },
  SC000001: { jurisdiction: "Scotland", scenario: "accepted", outcome: "accepted", immediate: false, reason: "success", inSpec: true },
  SC000002: {
    jurisdiction: "Scotland",
    scenario: "company-dissolved",
    outcome: "rejected",
    immediate: false,
    reason: "company dissolved",
    error: { code: "COMPANY_DISSOLVED", message: "The company is dissolved (sandbox)" },
    inSpec: true,
  },
  NI000001: {
    jurisdiction: "Northern Ireland",
    scenario: "accepted",
    outcome: "accepted",
    immediate: false,
    reason: "success",
    inSpec: true,
  },
  NI000002: {
    jurisdiction: "Northern Ireland",
    scenario: "auth-code-invalid",
    outcome: "rejected",
    immediate: false,
    reason: "company authentication code invalid",
    error: { code: "AUTH_CODE_INVALID", message: "The company authentication code is invalid (sandbox)" },
    inSpec: true,
  },
  "00000006": {
    jurisdiction: "England/Wales",
    scenario: "parked-then-accepted",
    outcome: "accepted",
    immediate: false,
    reason: "accepted after the registry parks the accounts for a while (extension)",
    inSpec: false,
  },
};

/** The table's last row: every company number not listed (sandbox rule 6: accepted). */
export const SANDBOX_ANY_OTHER_COMPANY: SandboxCompany = {
  jurisdiction: "England/Wales",
  scenario: "accepted",
  outcome: "accepted",
  immediate: false,
  reason: "any other company number",
  inSpec: true,
};

/**
 * The one number the registry does not know: live filings and registry reads of it fail as for an
 * unknown company. It is not a sandbox row: the spec's rule 6 makes a test key's filing of any
 * unlisted number accepted, and the sandbox reads no registry.
 */
export const UNKNOWN_COMPANY_NUMBER = "99999999";

/** What a test key's filing of this company number reports. */
export function sandboxCompany(companyNumber: string): SandboxCompany {
  return SANDBOX_COMPANIES[companyNumber] ?? SANDBOX_ANY_OTHER_COMPANY;
}
