import type { SubmissionStatusInput } from "@dormant/govtalk";
import type { RegistryOutcome } from "../sandbox/scenarios.ts";

/** An accounts submission the simulated registry holds. */
export interface RegistrySubmission {
  submissionNumber: string;
  companyNumber: string;
  /** When examination ends: PENDING until then. */
  readyAt: number;
  /** For a parked outcome: PARKED until then, then ACCEPT. */
  parkedUntil: number;
  outcome: RegistryOutcome;
}

/** The status of a submission at `now`; undefined when the registry stays silent about it. */
export function statusAt(submission: RegistrySubmission, now: number): SubmissionStatusInput | undefined {
  const base = { submissionNumber: submission.submissionNumber, companyNumber: submission.companyNumber };
  const { outcome } = submission;
  if (outcome.kind === "no-answer") return undefined;
  if (now < submission.readyAt) return { ...base, statusCode: "PENDING" };
  switch (outcome.kind) {
    case "accept":
      return { ...base, statusCode: "ACCEPT" };
    case "reject":
      return {
        ...base,
        statusCode: "REJECT",
        rejections: outcome.rejections.map((reject, index) => ({
          rejectCode: reject.code,
          description: reject.description,
          instanceNumber: String(index + 1),
        })),
      };
    case "parked-then-accept":
      return now < submission.parkedUntil
        ? { ...base, statusCode: "PARKED", examiner: { comment: "Held for examination" } }
        : { ...base, statusCode: "ACCEPT" };
    case "internal-failure":
      return { ...base, statusCode: "INTERNAL_FAILURE" };
  }
}
