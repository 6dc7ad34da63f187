import { REGISTRY_ERRORS, type GovTalkErrorInput } from "@dormant/govtalk";

/**
 * The gateway's synchronous errors. 502 is the registry's own number; the registry does not
 * publish the others, so the simulator's are documented in its README.
 */
export const REGISTRY_SIM_ERRORS = {
  /** The message is not a valid request (XML, envelope, form header). Sim-chosen. */
  invalidRequest: (reason: string): GovTalkErrorInput => ({ raisedBy: "Gateway", number: 100, type: "fatal", text: `Invalid request: ${reason}` }),
  authorisationFailure: (): GovTalkErrorInput => ({ ...REGISTRY_ERRORS[502], location: "Header/SenderDetails/IDAuthentication" }),
  /** The SubmissionNumber was used before by this presenter. Sim-chosen. */
  duplicateSubmission: (submissionNumber: string): GovTalkErrorInput => ({
    raisedBy: "Gateway",
    number: 9000,
    type: "fatal",
    text: `Submission number ${submissionNumber} has already been used by this presenter`,
    location: "Body/FormSubmission/FormHeader/SubmissionNumber",
  }),
  /** The attached accounts are not a well-formed iXBRL document (the registry uses 9999). */
  documentInvalid: (reason: string): GovTalkErrorInput => ({
    raisedBy: "Gateway",
    number: 9999,
    type: "fatal",
    text: reason,
    location: "Body/FormSubmission/Document/Data",
  }),
} as const;
