import type { RegistryOutcome } from "@dormant/contracts";
import { isFinalFiling, submissionMayMove } from "../state/filing-state.ts";
import { recordHistory } from "../state/transitions.ts";
import type { OutcomeChange } from "./apply-outcome.ts";

/**
 * `registry.outcome`: the accounts' registry_status moves to accepted, rejected or error when
 * the message is about this filing's submission number and the state machine allows it. The
 * registry's own status code (ACCEPT, REJECT, INTERNAL_FAILURE, ...) and reject codes go into the
 * history. A rejection's error becomes the filing's, unless the filing already ended otherwise.
 */
export function applyRegistryOutcome(payload: RegistryOutcome): OutcomeChange {
  return (change, cause) => {
    const filing = change.after;
    if (filing.filingType !== "accounts" || filing.registrySubmissionNumber !== payload.submission_number) return false;
    const from = filing.registryStatus ?? "pending";
    if (!submissionMayMove(from, payload.outcome)) return false;
    const error = payload.outcome === "accepted" ? undefined : payload.error;
    const rejections = payload.outcome === "accepted" ? "" : payload.rejections.map((r) => ` ${r.code} ${r.description}`).join(";");
    recordHistory(change, {
      field: "registry_status",
      from,
      to: payload.outcome,
      cause: `${cause.text} (registry ${payload.registry_status}${rejections})`,
    });
    filing.registryStatus = payload.outcome;
    filing.updatedAt = change.now;
    if (error && !isFinalFiling(filing.status)) {
      filing.errorCode = error.code;
      filing.errorMessage = error.message;
    }
    return true;
  };
}
