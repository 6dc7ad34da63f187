import { z } from "zod";
import { MessageTemplate } from "../envelope/message-template.ts";
import { parseInput } from "../envelope/parse-input.ts";
import { GovTalkInputError } from "../errors.ts";
import { appendSenderDetails, serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { NS } from "../xml/namespaces.ts";
import { REGISTRY_AUTH_METHOD, REGISTRY_ENVELOPE_VERSION, REGISTRY_STATUS_CLASS } from "./constants.ts";
import { presenterCredentialHashes, type RegistryPresenter } from "./credentials.ts";
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
  return buildStatusMessage(
    data.presenter,
    data.gatewayTest,
    data.transactionId,
    "submissionNumber" in data ? { submissionNumber: data.submissionNumber } : { companyNumber: data.companyNumber },
  );
}

function buildStatusMessage(
  presenter: RegistryPresenter,
  gatewayTest: boolean,
  transactionId: string,
  by: { submissionNumber: string } | { companyNumber: string },
): string {
  const { document, root, header } = startGovTalkMessage({
    envelopeVersion: REGISTRY_ENVELOPE_VERSION,
    class: REGISTRY_STATUS_CLASS,
    qualifier: "request",
    transactionId,
    gatewayTest,
  });
  const hashes = presenterCredentialHashes(presenter);
  appendSenderDetails(header, {
    senderId: hashes.senderId,
    method: presenter.authMethod ?? REGISTRY_AUTH_METHOD,
    value: hashes.authenticationValue,
    ...(presenter.emailAddress === undefined ? {} : { emailAddress: presenter.emailAddress }),
  });
  root.ele("GovTalkDetails").ele("Keys");
  const request = root.ele("Body").ele(NS.registry, "GetSubmissionStatus");
  if ("submissionNumber" in by) request.ele("SubmissionNumber").txt(by.submissionNumber);
  else request.ele("CompanyNumber").txt(by.companyNumber);
  request.ele("PresenterID").txt(presenter.presenterId);
  return serializeMessage(document);
}

const TRANSACTION_ID_SLOT = "TRANSACTION-ID-SLOT";
const NUMBER_SLOT = "NUMBER-SLOT";
const COMPANY_NUMBER_PATTERN = /^[A-Z0-9]{8}$/;

type StatusSlots = "transactionId" | "number";

/** One status request for the builder's presenter: by SubmissionNumber or by CompanyNumber. */
export type SubmissionStatusQuery = { transactionId: string; submissionNumber: string } | { transactionId: string; companyNumber: string };

function refuse(field: string, message: string): never {
  throw new GovTalkInputError(`invalid submission status request input: ${field}: ${message}`, [{ path: field, message }]);
}

/**
 * `buildSubmissionStatusRequest` for one presenter and GatewayTest value, made once (a worker
 * polls with the same presenter for its whole life): the presenter is checked and hashed, and
 * the message serialised with placeholders, when the builder is made; each request then only
 * checks its TransactionID and number against their patterns (upper-case letters and digits, so
 * nothing to escape) and writes them in. The text is byte for byte what
 * `buildSubmissionStatusRequest` gives for the same input.
 */
export function createSubmissionStatusRequestBuilder(options: {
  presenter: RegistryPresenter;
  gatewayTest: boolean;
}): (query: SubmissionStatusQuery) => string {
  const check = { transactionId: "0", gatewayTest: options.gatewayTest, presenter: options.presenter };
  parseInput(submissionStatusRequestInputSchema, { ...check, submissionNumber: "000000" }, "submission status request input");
  const template = (by: "submissionNumber" | "companyNumber") =>
    new MessageTemplate<StatusSlots>(
      buildStatusMessage(
        options.presenter,
        options.gatewayTest,
        TRANSACTION_ID_SLOT,
        by === "submissionNumber" ? { submissionNumber: NUMBER_SLOT } : { companyNumber: NUMBER_SLOT },
      ),
      { transactionId: TRANSACTION_ID_SLOT, number: NUMBER_SLOT },
    );
  const bySubmission = template("submissionNumber");
  const byCompany = template("companyNumber");
  return (query) => {
    if (!TRANSACTION_ID_PATTERN.test(query.transactionId)) refuse("transactionId", "must be 1-32 upper-case hexadecimal digits");
    if ("submissionNumber" in query) {
      if (!SUBMISSION_NUMBER_PATTERN.test(query.submissionNumber)) refuse("submissionNumber", "must be 6 upper-case letters or digits");
      return bySubmission.fill({ transactionId: query.transactionId, number: query.submissionNumber });
    }
    if (!COMPANY_NUMBER_PATTERN.test(query.companyNumber)) refuse("companyNumber", "must be 8 upper-case letters or digits");
    return byCompany.fill({ transactionId: query.transactionId, number: query.companyNumber });
  };
}
