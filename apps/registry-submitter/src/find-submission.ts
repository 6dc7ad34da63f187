import type { AuthorityLookup } from "@dormant/authority-client";
import type { SubmitRegistryAccountsResponse } from "@dormant/contracts";
import type { StatusAnswer } from "./registry-gateway.ts";

/** The registry's GetSubmissionStatus by submission number (RegistryGateway.status). */
export type SubmissionStatus = (submissionNumber: string, options: { signal?: AbortSignal }) => Promise<StatusAnswer>;

/**
 * Asks the registry whether it has a filing's accounts whose acknowledgement was lost:
 * GetSubmissionStatus by the filing's submission number (the presenter's credentials come from
 * configuration, so nothing secret needs keeping). Listed with any status (PENDING, PARKED,
 * ACCEPT, REJECT, ...): it has them, answered as the acknowledgement would have been. Not
 * listed: `found: false`. A refused or failed status request throws: the accounts stay in doubt.
 */
export function findSubmittedAccounts(options: {
  submissionNumber: string;
  status: SubmissionStatus;
}): AuthorityLookup<SubmitRegistryAccountsResponse, undefined> {
  return async (_attempt, signal) => {
    const answer = await options.status(options.submissionNumber, signal ? { signal } : {});
    if (answer.type === "error") throw new Error(`the registry refused the status request (${answer.classification.summary})`);
    const listed = answer.statuses.some((status) => status.submissionNumber === options.submissionNumber);
    if (!listed) return { found: false };
    return { found: true, response: { submission_number: options.submissionNumber, submitted_at: new Date().toISOString() } };
  };
}
