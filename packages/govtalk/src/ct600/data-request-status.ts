/**
 * `StatusRecord/Status` values of a DATA_REQUEST answer as the simulator writes them, and what
 * each says about the submission. `SUBMISSION_RESPONSE` is in the Gift Aid answer of HMRC's
 * development gateway (testdata/hmrc); the other two are the simulator's reading of HMRC's
 * Document Submission Protocol, whose list could not be checked offline. A reader must not
 * depend on them: the outcome of a listed submission is read by polling its CorrelationID.
 */
export const DATA_REQUEST_STATUS = {
  /** Taken in, no final answer yet (a poll answers the acknowledgement). */
  acknowledged: "SUBMISSION_ACKNOWLEDGE",
  /** Final: a success response is waiting for the poll. */
  response: "SUBMISSION_RESPONSE",
  /** Final: an error (e.g. business rules) is waiting for the poll. */
  error: "SUBMISSION_ERROR",
} as const;

export type DataRequestStatus = (typeof DATA_REQUEST_STATUS)[keyof typeof DATA_REQUEST_STATUS];
