import { z } from "zod";
import { parseInput } from "../envelope/parse-input.ts";
import { appendSenderDetails, serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { NS } from "../xml/namespaces.ts";
import { REGISTRY_AUTH_METHOD, REGISTRY_ENVELOPE_VERSION, REGISTRY_STATUS_CLASS } from "./constants.ts";
import { presenterCredentialHashes } from "./credentials.ts";
import { registryPresenterSchema } from "./form-submission.ts";
import { SUBMISSION_NUMBER_PATTERN, TRANSACTION_ID_PATTERN } from "./identifiers.ts";

const common = {
  presenter: registryPresenterSchema,
  transactionId: z.string().regex(TRANSACTION_ID_PATTERN, "must be 1-32 upper-case hexadecimal digits"),
  gatewayTest: z.boolean(),
};

/** Ask for one submission's status, or for the outstanding statuses of one company. */
export const submissionStatusRequestInputSchema = z.union([
  z.object({ ...common, submissionNumber: z.string().regex(SUBMISSION_NUMBER_PATTERN, "must be 6 upper-case letters or digits") }),
  z.object({ ...common, companyNumber: z.string().regex(/^[A-Z0-9]{8}$/, "must be 8 upper-case letters or digits") }),
]);

export type SubmissionStatusRequestInput = z.input<typeof submissionStatusRequestInputSchema>;

/**
 * Builds the registry `GetSubmissionStatus` poll: same hashed presenter credentials as the
 * submission, body `GetSubmissionStatus` with the SubmissionNumber (or CompanyNumber), then the
 * PresenterID.
 */
export function buildSubmissionStatusRequest(input: SubmissionStatusRequestInput): string {
  const data = parseInput(submissionStatusRequestInputSchema, input, "submission status request input");
  const { document, root, header } = startGovTalkMessage({
    envelopeVersion: REGISTRY_ENVELOPE_VERSION,
    class: REGISTRY_STATUS_CLASS,
    qualifier: "request",
    transactionId: data.transactionId,
    gatewayTest: data.gatewayTest,
  });
  const hashes = presenterCredentialHashes(data.presenter);
  appendSenderDetails(header, {
    senderId: hashes.senderId,
    method: REGISTRY_AUTH_METHOD,
    value: hashes.authenticationValue,
    ...(data.presenter.emailAddress === undefined ? {} : { emailAddress: data.presenter.emailAddress }),
  });
  root.ele("GovTalkDetails").ele("Keys");
  const request = root.ele("Body").ele(NS.registry, "GetSubmissionStatus");
  if ("submissionNumber" in data) request.ele("SubmissionNumber").txt(data.submissionNumber);
  else request.ele("CompanyNumber").txt(data.companyNumber);
  request.ele("PresenterID").txt(data.presenter.presenterId);
  return serializeMessage(document);
}
