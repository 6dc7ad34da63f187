import type { FilingStatus, FilingPartStatus } from "@dormant/contracts";

/**
 * The state machines of a filing and of its submissions (a CT600 part's `tax_status`, an
 * accounts filing's `registry_status`), as pure functions. Every change in the database goes
 * through them, so a duplicate or late message can never move anything backwards.
 *
 * Submission: pending -> submitted -> polling -> accepted | rejected | error. Steps may be
 * skipped (an outcome can overtake the record of its own submit), never reversed; final is final,
 * except one move: error -> accepted. `error` is always ours (we could not learn the authority's
 * decision: a time-out, an outage, an interrupted submit), never the authority's word, so the
 * authority's acceptance arriving later is the truth and replaces it (a late acceptance).
 *
 * Filing: pending -> submitted -> accepted | rejected | error (pending may go straight to a final
 * status). Final is final (later messages about its submissions change only those), except that an
 * `error` filing whose submissions all turn out accepted becomes `accepted` (late acceptance: it is
 * charged and gets its documents; the event says what it corrects). `rejected` never changes.
 */
export type SubmissionStatus = FilingPartStatus;

const SUBMISSION_RANK: Record<SubmissionStatus, number> = { pending: 0, submitted: 1, polling: 2, accepted: 3, rejected: 3, error: 3 };

export function isFinalSubmission(status: SubmissionStatus): boolean {
  return SUBMISSION_RANK[status] === 3;
}

export function isFinalFiling(status: FilingStatus): boolean {
  return status === "accepted" || status === "rejected" || status === "error";
}

/** Whether a submission may move from `from` to `to` (only forwards, never out of a final status but for a late acceptance). */
export function submissionMayMove(from: SubmissionStatus, to: SubmissionStatus): boolean {
  if (from === "error" && to === "accepted") return true;
  return !isFinalSubmission(from) && SUBMISSION_RANK[to] > SUBMISSION_RANK[from];
}

/**
 * The filing's status given its submissions' statuses:
 * - a final filing stays as it is, except an `error` one whose submissions are now all accepted:
 *   `accepted` (a late acceptance);
 * - any submission rejected: `rejected` at once (the other part cannot change that outcome);
 * - every submission final: `accepted` when all were accepted, else `error` (an error beside an
 *   acceptance, or two errors: nothing is charged and submitting again is the remedy);
 * - any submission not yet acknowledged: `pending`;
 * - otherwise `submitted` (also while polling).
 * So a part's `error` waits for the other part: if that one is rejected the filing is
 * `rejected` (the authority's decision says more than our failure), otherwise `error`.
 */
export function decideFilingStatus(current: FilingStatus, submissions: readonly SubmissionStatus[]): FilingStatus {
  if (current === "error" && submissions.length > 0 && submissions.every((status) => status === "accepted")) return "accepted";
  if (isFinalFiling(current)) return current;
  if (submissions.includes("rejected")) return "rejected";
  if (submissions.length > 0 && submissions.every(isFinalSubmission)) {
    return submissions.every((status) => status === "accepted") ? "accepted" : "error";
  }
  if (submissions.includes("pending")) return "pending";
  return "submitted";
}

/** The submission whose error becomes the filing's: the first rejected one, else the first in error. */
export function decidingSubmission<T extends { status: SubmissionStatus }>(
  filingStatus: FilingStatus,
  submissions: readonly T[],
): T | undefined {
  if (filingStatus === "rejected") return submissions.find((s) => s.status === "rejected");
  if (filingStatus === "error") return submissions.find((s) => s.status === "error");
  return undefined;
}
