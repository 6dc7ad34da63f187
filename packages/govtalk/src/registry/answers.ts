import type { GovTalkErrorInput } from "../envelope/govtalk-error.ts";
import { appendGovTalkErrors, serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { NS } from "../xml/namespaces.ts";
import { REGISTRY_ACCOUNTS_CLASS, REGISTRY_ENVELOPE_VERSION, REGISTRY_STATUS_CLASS } from "./constants.ts";
import type { RegistryStatusCode } from "./status.ts";

/**
 * The registry gateway's synchronous errors, for answer builders (the simulator adds the
 * specifics to the Text and a Location). 502 "Authorisation Failure" and 9999 are the registry's
 * own numbers; the registry publishes no number for an invalid request, so 100 is the
 * simulator's. Classification: REGISTRY_ERROR_KINDS; duplicates: isDuplicateSubmissionError.
 */
export const REGISTRY_ERRORS = {
  100: { raisedBy: "Gateway", number: 100, type: "fatal", text: "Invalid request" },
  502: { raisedBy: "Gateway", number: 502, type: "fatal", text: "Authorisation Failure" },
  9999: { raisedBy: "Gateway", number: 9999, type: "fatal", text: "The submission failed the gateway's automatic validation" },
} as const satisfies Record<number, GovTalkErrorInput>;

/**
 * The real gateway's answer to a SubmissionNumber (the "envelope number") used before by the
 * presenter: 9999 "Invalid Envelope Number" (IRIS knowledge base kba-02989 "Rejection 9999
 * Invalid Envelope Number when submitting to Companies House"; Absolute Tax knowledge base
 * "9999 Invalid Envelope Number when filing to Companies House").
 */
export const REGISTRY_INVALID_ENVELOPE_NUMBER = {
  raisedBy: "Gateway",
  number: 9999,
  type: "fatal",
  text: "Invalid Envelope Number",
} as const satisfies GovTalkErrorInput;

interface AnswerEnvelope {
  transactionId: string;
  gatewayTest?: boolean;
  gatewayTimestamp?: string;
}

/** The gateway's `acknowledgement` of an accounts submission (empty Body). */
export function buildAccountsSubmissionAcknowledgement(input: AnswerEnvelope): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: REGISTRY_ENVELOPE_VERSION,
    class: REGISTRY_ACCOUNTS_CLASS,
    qualifier: "acknowledgement",
    transactionId: input.transactionId,
    gatewayTest: input.gatewayTest,
    gatewayTimestamp: input.gatewayTimestamp,
  });
  root.ele("GovTalkDetails").ele("Keys");
  root.ele("Body");
  return serializeMessage(document);
}

/** The gateway's `error` answer with GovTalkErrors (e.g. REGISTRY_ERRORS[502]), for either class. */
export function buildRegistryErrorResponse(input: AnswerEnvelope & { class: string; errors: readonly GovTalkErrorInput[] }): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: REGISTRY_ENVELOPE_VERSION,
    class: input.class,
    qualifier: "error",
    transactionId: input.transactionId,
    gatewayTest: input.gatewayTest,
    gatewayTimestamp: input.gatewayTimestamp,
  });
  appendGovTalkErrors(root.ele("GovTalkDetails"), input.errors);
  root.ele("Body");
  return serializeMessage(document);
}

export interface SubmissionStatusInput {
  submissionNumber: string;
  statusCode: RegistryStatusCode;
  companyNumber?: string;
  rejections?: readonly { rejectCode: string; description: string; instanceNumber?: string }[];
  examiner?: { telephone?: string; comment?: string };
}

/** The gateway's `response` to GetSubmissionStatus: `SubmissionStatus` with one `Status` per submission. */
export function buildSubmissionStatusResponse(input: AnswerEnvelope & { statuses: readonly SubmissionStatusInput[] }): string {
  const { document, root } = startGovTalkMessage({
    envelopeVersion: REGISTRY_ENVELOPE_VERSION,
    class: REGISTRY_STATUS_CLASS,
    qualifier: "response",
    transactionId: input.transactionId,
    gatewayTest: input.gatewayTest,
    gatewayTimestamp: input.gatewayTimestamp,
  });
  root.ele("GovTalkDetails").ele("Keys");
  const answer = root.ele("Body").ele(NS.registry, "SubmissionStatus");
  for (const status of input.statuses) {
    const element = answer.ele("Status");
    element.ele("SubmissionNumber").txt(status.submissionNumber);
    element.ele("StatusCode").txt(status.statusCode);
    if (status.companyNumber !== undefined) element.ele("CompanyNumber").txt(status.companyNumber);
    if (status.rejections && status.rejections.length > 0) {
      const rejections = element.ele("Rejections");
      for (const rejection of status.rejections) {
        const reject = rejections.ele("Reject");
        reject.ele("RejectCode").txt(rejection.rejectCode);
        reject.ele("Description").txt(rejection.description);
        if (rejection.instanceNumber !== undefined) reject.ele("InstanceNumber").txt(rejection.instanceNumber);
      }
    }
    if (status.examiner) {
      const examiner = element.ele("Examiner");
      if (status.examiner.telephone !== undefined) examiner.ele("Telephone").txt(status.examiner.telephone);
      if (status.examiner.comment !== undefined) examiner.ele("Comment").txt(status.examiner.comment);
    }
  }
  return serializeMessage(document);
}
