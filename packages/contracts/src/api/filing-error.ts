import { z } from "zod";

/**
 * The `error.code` values of a filing that ended `rejected` or `error` (the spec leaves them
 * open). Sandbox outcomes use them, and the live pipeline reports authority outcomes with them.
 * Each code belongs to exactly one final status.
 */
export const FILING_ERROR_CODES = {
  TAX_UTR_MISMATCH: { status: "rejected", description: "The UTR does not match the tax authority's records for the company." },
  PERIOD_ALREADY_FILED: { status: "rejected", description: "A return or accounts for this period were already filed." },
  COMPANY_DISSOLVED: { status: "rejected", description: "The company is dissolved." },
  AUTH_CODE_INVALID: { status: "rejected", description: "The registry refused the company authentication code." },
  TAX_REJECTED: {
    status: "rejected",
    description: "The tax authority rejected the return for another business reason (its text is in `message`).",
  },
  REGISTRY_REJECTED: {
    status: "rejected",
    description: "The registry rejected the accounts for another reason (its text is in `message`).",
  },
  GATEWAY_TIMEOUT: { status: "error", description: "The authority did not answer in time; submitting again is safe." },
  REGISTRY_NO_DECISION: {
    status: "error",
    description:
      "The registry held the accounts undecided (`PENDING` or `PARKED`) until the platform stopped asking (14 days by default); the registry may still decide them, so check the company's filing history before filing again. Nothing was charged.",
  },
  CREDENTIALS_INVALID: { status: "error", description: "The authority refused the gateway credentials." },
  AUTHORITY_UNAVAILABLE: { status: "error", description: "The authority stayed unavailable for longer than the filing could wait." },
  INTERNAL_ERROR: { status: "error", description: "The platform failed to complete the filing; nothing was charged." },
} as const satisfies Record<string, { status: "rejected" | "error"; description: string }>;

export const FilingErrorCode = z
  .enum(Object.keys(FILING_ERROR_CODES) as [keyof typeof FILING_ERROR_CODES, ...(keyof typeof FILING_ERROR_CODES)[]])
  .meta({
    id: "FilingErrorCode",
    description: Object.entries(FILING_ERROR_CODES)
      .map(([code, { status, description }]) => `\`${code}\` (${status}): ${description}`)
      .join("\n"),
  });
export type FilingErrorCode = z.infer<typeof FilingErrorCode>;

export const FilingError = z
  .object({ code: FilingErrorCode, message: z.string() })
  .meta({ id: "FilingError", description: "Why a filing ended `rejected` or `error` (present only then)." });
export type FilingError = z.infer<typeof FilingError>;
