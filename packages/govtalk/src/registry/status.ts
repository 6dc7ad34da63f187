/** Status codes of a registry submission. */
export const REGISTRY_STATUS_CODES = ["ACCEPT", "REJECT", "PENDING", "PARKED", "INTERNAL_FAILURE"] as const;
export type RegistryStatusCode = (typeof REGISTRY_STATUS_CODES)[number];

/** What a status means for the filing: final (accepted, rejected, error) or keep polling (pending). */
export type RegistryOutcome = "accepted" | "rejected" | "pending" | "error" | "unknown";

/**
 * ACCEPT = accepted; REJECT = rejected (see the rejections); PENDING and PARKED (held for an
 * examiner) = poll again later; INTERNAL_FAILURE = the registry failed to process it (error);
 * any other code = unknown (keep polling and alert: never treat it as final).
 */
export function registryStatusOutcome(code: string): RegistryOutcome {
  switch (code) {
    case "ACCEPT":
      return "accepted";
    case "REJECT":
      return "rejected";
    case "PENDING":
    case "PARKED":
      return "pending";
    case "INTERNAL_FAILURE":
      return "error";
    default:
      return "unknown";
  }
}

/** One rejection reason. */
export interface RegistryRejection {
  rejectCode: string;
  description: string;
  instanceNumber: string | undefined;
}

/** One `SubmissionStatus/Status`. */
export interface RegistrySubmissionStatus {
  submissionNumber: string;
  statusCode: string;
  outcome: RegistryOutcome;
  companyNumber: string | undefined;
  rejections: RegistryRejection[];
  examiner: { telephone: string | undefined; comment: string | undefined } | undefined;
}
