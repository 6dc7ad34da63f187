import type { FilingErrorCode, SandboxOutcome } from "@dormant/contracts";

export interface SandboxScenario {
  jurisdiction: "England/Wales" | "Scotland" | "Northern Ireland";
  outcome: SandboxOutcome;
  /** 00000005: the outcome is ready at once (every sandbox outcome is, on the first poll). */
  immediate: boolean;
  reason: string;
  /** The filing's `error` for rejected and error outcomes. */
  error?: { code: FilingErrorCode; message: string };
}

/** The spec's sandbox table: the company number decides what a poll answers. */
export const SANDBOX_SCENARIOS: Readonly<Record<string, SandboxScenario>> = {
  "00000001": { jurisdiction: "England/Wales", outcome: "accepted", immediate: false, reason: "standard success" },
  "00000002": {
    jurisdiction: "England/Wales",
    outcome: "rejected",
    immediate: false,
    reason: "UTR does not match company records",
    error: { code: "TAX_UTR_MISMATCH", message: "The UTR does not match the company's records (sandbox)" },
  },
  "00000003": {
    jurisdiction: "England/Wales",
    outcome: "rejected",
    immediate: false,
    reason: "period already filed",
    error: { code: "PERIOD_ALREADY_FILED", message: "A filing for this period was already made (sandbox)" },
  },
  "00000004": {
    jurisdiction: "England/Wales",
    outcome: "error",
    immediate: false,
    reason: "gateway time-out (for retry tests)",
    error: { code: "GATEWAY_TIMEOUT", message: "The authority did not answer in time; submitting again is safe (sandbox)" },
  },
  "00000005": { jurisdiction: "England/Wales", outcome: "accepted", immediate: true, reason: "immediate success" },
  SC000001: { jurisdiction: "Scotland", outcome: "accepted", immediate: false, reason: "success" },
  SC000002: {
    jurisdiction: "Scotland",
    outcome: "rejected",
    immediate: false,
    reason: "company dissolved",
    error: { code: "COMPANY_DISSOLVED", message: "The company is dissolved (sandbox)" },
  },
  NI000001: { jurisdiction: "Northern Ireland", outcome: "accepted", immediate: false, reason: "success" },
  NI000002: {
    jurisdiction: "Northern Ireland",
    outcome: "rejected",
    immediate: false,
    reason: "company authentication code invalid",
    error: { code: "AUTH_CODE_INVALID", message: "The company authentication code is invalid (sandbox)" },
  },
};

/** The table's last row: every company number not listed above. */
export const ANY_OTHER_COMPANY: SandboxScenario = {
  jurisdiction: "England/Wales",
  outcome: "accepted",
  immediate: false,
  reason: "any other company number",
};

/** Any company number not in the table is accepted (sandbox rule 6). */
export function sandboxScenario(companyNumber: string): SandboxScenario {
  return SANDBOX_SCENARIOS[companyNumber] ?? ANY_OTHER_COMPANY;
}
