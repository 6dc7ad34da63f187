import type { FilingErrorCode } from "@dormant/contracts";

/** One plain sentence per platform error code of a rejected or failed filing. */
export const ERROR_EXPLANATIONS: Record<FilingErrorCode, string> = {
  TAX_UTR_MISMATCH: "The tax authority says the Unique Taxpayer Reference does not belong to this company; check the UTR and file again.",
  PERIOD_ALREADY_FILED: "A return or accounts for this period had already been filed, so this one was refused.",
  COMPANY_DISSOLVED: "The company is dissolved, so nothing can be filed for it.",
  AUTH_CODE_INVALID: "Companies House refused the company authentication code; check the code and file again.",
  TAX_REJECTED: "The tax authority rejected the return; its own reason is in the message below.",
  REGISTRY_REJECTED: "Companies House rejected the accounts; its own reason is in the message below.",
  GATEWAY_TIMEOUT: "The authority did not answer in time; submitting again is safe.",
  REGISTRY_NO_DECISION:
    "Companies House held the accounts without deciding until the platform stopped asking; check the company's filing history before filing again (nothing was charged).",
  CREDENTIALS_INVALID: "The tax authority refused the Government Gateway credentials; check the user ID and password and file again.",
  AUTHORITY_UNAVAILABLE: "The authority was unavailable for longer than the filing could wait; try again later.",
  INTERNAL_ERROR: "The platform failed to complete the filing; nothing was charged, and you can file again.",
};

export function explainError(code: string): string {
  return (ERROR_EXPLANATIONS as Record<string, string | undefined>)[code] ?? "The filing did not complete; the message below says why.";
}
