import { REGISTRY_ERRORS, REGISTRY_INVALID_ENVELOPE_NUMBER, type GovTalkErrorInput } from "@dormant/govtalk";

/**
 * The gateway's synchronous errors, from @dormant/govtalk's REGISTRY_ERRORS with the specifics
 * added. 502 and 9999 (with the real texts where known) are the registry's own numbers; 100 is
 * the simulator's (the registry does not publish one), documented in the README with sources.
 */
export const REGISTRY_SIM_ERRORS = {
  /** The message is not a valid request (XML, envelope, form header). Sim-chosen. */
  invalidRequest: (reason: string): GovTalkErrorInput => ({ ...REGISTRY_ERRORS[100], text: `${REGISTRY_ERRORS[100].text}: ${reason}` }),
  authorisationFailure: (): GovTalkErrorInput => ({ ...REGISTRY_ERRORS[502], location: "Header/SenderDetails/IDAuthentication" }),
  /** The SubmissionNumber (the "envelope number") was used before by this presenter: the real 9999 "Invalid Envelope Number". */
  duplicateSubmission: (): GovTalkErrorInput => ({
    ...REGISTRY_INVALID_ENVELOPE_NUMBER,
    location: "Body/FormSubmission/FormHeader/SubmissionNumber",
  }),
  /**
   * An element the FormSubmission schema refuses (e.g. a Filename over 32 characters): the real
   * gateway's wording for schema failures; the number (100) is the simulator's.
   */
  invalidElement: (element: string, reason: string): GovTalkErrorInput => ({
    ...REGISTRY_ERRORS[100],
    text: `Invalid formatted XML Document - Please check element '${element}': ${reason}`,
  }),
  /** GatewayTest is not 0 or 1: the real gateway's text; the number (100) is the simulator's. */
  invalidTestMode: (): GovTalkErrorInput => ({
    ...REGISTRY_ERRORS[100],
    text: "Invalid testmode selected. You must use a test efiling presenter account and set the test mode.",
    location: "Header/MessageDetails/GatewayTest",
  }),
  /** The attached accounts are not a well-formed iXBRL document (the registry uses 9999). */
  documentInvalid: (reason: string): GovTalkErrorInput => ({
    ...REGISTRY_ERRORS[9999],
    text: reason,
    location: "Body/FormSubmission/Document/Data",
  }),
} as const;
