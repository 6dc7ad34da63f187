import { REGISTRY_ERRORS, type GovTalkErrorInput } from "@dormant/govtalk";

/**
 * The gateway's synchronous errors, from @dormant/govtalk's REGISTRY_ERRORS with the specifics
 * added. 502 and 9999 are the registry's own numbers; 100 and 9000 are the simulator's (the
 * registry does not publish them), documented in the README.
 */
export const REGISTRY_SIM_ERRORS = {
  /** The message is not a valid request (XML, envelope, form header). Sim-chosen. */
  invalidRequest: (reason: string): GovTalkErrorInput => ({ ...REGISTRY_ERRORS[100], text: `${REGISTRY_ERRORS[100].text}: ${reason}` }),
  authorisationFailure: (): GovTalkErrorInput => ({ ...REGISTRY_ERRORS[502], location: "Header/SenderDetails/IDAuthentication" }),
  /** The SubmissionNumber was used before by this presenter. Sim-chosen. */
  duplicateSubmission: (submissionNumber: string): GovTalkErrorInput => ({
    ...REGISTRY_ERRORS[9000],
    text: `Submission number ${submissionNumber} has already been used by this presenter`,
    location: "Body/FormSubmission/FormHeader/SubmissionNumber",
  }),
  /** The attached accounts are not a well-formed iXBRL document (the registry uses 9999). */
  documentInvalid: (reason: string): GovTalkErrorInput => ({
    ...REGISTRY_ERRORS[9999],
    text: reason,
    location: "Body/FormSubmission/Document/Data",
  }),
} as const;
