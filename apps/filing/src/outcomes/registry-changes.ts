import type { RegistryOutcome, RegistryStatusReport } from "@dormant/contracts";
import { isFinalFiling, isFinalSubmission, submissionMayMove } from "../state/filing-state.ts";
import { fillRegistrySubmittedAt } from "../state/submission-record.ts";
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
    // When the registry acknowledged the accounts, filled in whether or not the status moves.
    const filled = fillRegistrySubmittedAt(change, payload.submitted_at);
    if (!submissionMayMove(from, payload.outcome)) return filled;
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

/**
 * `registry.status`: the registry holds the accounts undecided (PENDING or PARKED). The filing
 * keeps the registry's code, since when (the time of the poll that first saw that code) and the
 * examiner's comment, with a history row `registry_status_code` from the previous code; no status
 * moves (registry_status stays as it is, so the filing stays `submitted`). Ignored when it is
 * about another submission, when the registry already decided (a final registry_status), and
 * when it is older than the status the filing shows (messages overtaking each other).
 */
export function applyRegistryStatus(payload: RegistryStatusReport): OutcomeChange {
  return (change, cause) => {
    const filing = change.after;
    if (filing.filingType !== "accounts" || filing.registrySubmissionNumber !== payload.submission_number) return false;
    const filled = fillRegistrySubmittedAt(change, payload.submitted_at);
    if (isFinalSubmission(filing.registryStatus ?? "pending")) return filled;
    const polledAt = new Date(payload.polled_at);
    const shown = filing.registryExamination ?? null;
    if (shown && shown.since.getTime() >= polledAt.getTime()) return filled;
    const comment = payload.examiner_comment ?? null;
    if (shown && shown.statusCode === payload.registry_status && shown.examinerComment === comment) return filled;
    recordHistory(change, {
      field: "registry_status_code",
      from: shown?.statusCode ?? null,
      to: payload.registry_status,
      cause: `${cause.text}${comment ? ` (examiner: ${comment})` : ""}`,
    });
    // A new comment under the same code keeps the time the code was first seen.
    const since = shown?.statusCode === payload.registry_status ? shown.since : polledAt;
    filing.registryExamination = { statusCode: payload.registry_status, since, examinerComment: comment };
    return true;
  };
}
