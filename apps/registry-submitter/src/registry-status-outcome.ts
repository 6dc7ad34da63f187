import type { FilingError, FilingErrorCode, PollRegistryStatusCommand } from "@dormant/contracts";
import type { RegistryErrorAnswer, RegistrySubmissionStatus } from "@dormant/govtalk";

/** A final status that is not an acceptance, as the filing's outcome reports it. */
export interface RegistryErrorOutcome {
  outcome: "rejected" | "error";
  registry_status: string;
  error: FilingError;
  rejections: { code: string; description: string }[];
}

/**
 * Reject codes with a filing error code of their own, most decisive first. The registry does
 * not publish its codes; these are the simulator's (apps/authority-sim/README.md) and must be
 * checked against the registry's before going live. Any other code is REGISTRY_REJECTED with
 * the registry's descriptions.
 */
const REJECT_CODES: readonly { code: string; filingError: FilingErrorCode }[] = [
  { code: "601", filingError: "AUTH_CODE_INVALID" },
  { code: "304", filingError: "COMPANY_DISSOLVED" },
  { code: "262", filingError: "PERIOD_ALREADY_FILED" },
];

/** REJECT -> rejected (mapped by reject code); INTERNAL_FAILURE -> error AUTHORITY_UNAVAILABLE. */
export function registryErrorOutcome(status: RegistrySubmissionStatus): RegistryErrorOutcome {
  const rejections = status.rejections.map((reject) => ({ code: reject.rejectCode, description: reject.description }));
  if (status.outcome === "rejected") {
    const match = REJECT_CODES.find(({ code }) => rejections.some((reject) => reject.code === code));
    const message =
      rejections
        .map((reject) => reject.description)
        .filter(Boolean)
        .join(" ") || "The registry rejected the accounts.";
    return {
      outcome: "rejected",
      registry_status: status.statusCode,
      error: { code: match?.filingError ?? "REGISTRY_REJECTED", message },
      rejections,
    };
  }
  return {
    outcome: "error",
    registry_status: status.statusCode,
    error: { code: "AUTHORITY_UNAVAILABLE", message: `The registry could not process the accounts (${status.statusCode}).` },
    rejections,
  };
}

/** A status request the registry refused: presenter credentials (502) or a malformed request. */
export function registryRefusalOutcome(answer: RegistryErrorAnswer): RegistryErrorOutcome {
  const { kind, summary } = answer.classification;
  const rejections = answer.errors.map((error) => ({ code: String(error.number ?? ""), description: error.text }));
  if (kind === "authentication") {
    return {
      outcome: "error",
      registry_status: "ERROR",
      error: { code: "CREDENTIALS_INVALID", message: `The registry refused the presenter credentials: ${summary}` },
      rejections,
    };
  }
  return {
    outcome: "error",
    registry_status: "ERROR",
    error: { code: "INTERNAL_ERROR", message: `The registry could not process the status request: ${summary}` },
    rejections,
  };
}

/**
 * The horizon passed without a decision (README "Status polls"). Two cases, kept apart:
 * - the registry said it holds the accounts undecided (it answered PENDING or PARKED, or a status
 *   code this worker does not know): `REGISTRY_NO_DECISION`, with the last status and since when;
 *   the registry may still decide them;
 * - it never answered about them (no status request answered, e.g. the simulator's 00000004, or
 *   it never listed the submission): `GATEWAY_TIMEOUT`, as before.
 */
export function registryHorizonOutcome(
  command: Pick<PollRegistryStatusCommand, "give_up_at" | "reported_status">,
  why: string,
  heldUndecided: boolean,
): RegistryErrorOutcome {
  const held = command.reported_status;
  if (held || heldUndecided) {
    const last = held
      ? ` It was ${held.code} since ${held.since}${held.examiner_comment ? ` (examiner: ${held.examiner_comment})` : ""}.`
      : "";
    return {
      outcome: "error",
      registry_status: held?.code ?? "UNDECIDED",
      error: {
        code: "REGISTRY_NO_DECISION",
        message: `The registry had not decided on the accounts by ${command.give_up_at} (${why}).${last} It may still decide them: check the company's filing history before filing again.`,
      },
      rejections: [],
    };
  }
  return {
    outcome: "error",
    registry_status: "TIMEOUT",
    error: { code: "GATEWAY_TIMEOUT", message: `The registry did not give a final status by ${command.give_up_at} (${why}).` },
    rejections: [],
  };
}
