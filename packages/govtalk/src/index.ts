// @dormant/govtalk: GovTalk messages for the tax authority (CT600) and the registry's XML
// gateway (dormant accounts): builders and parsers for both sides, IRmark, schema validation.

export { GovTalkInputError, GovTalkXmlError } from "./errors.ts";
export { NS } from "./xml/namespaces.ts";
export { parseXml } from "./xml/parse-xml.ts";
export type { PickedElement, XmlOutline, XmlOutliner, XmlPick } from "./xml/outline-xml.ts";
export { loadXmlOutliner } from "./xml/outline-xml.ts";

// Envelope (shared by both authorities)
export type { GovTalkError, GovTalkErrorInput, GovTalkErrorType } from "./envelope/govtalk-error.ts";
export type { GovTalkAuthentication, GovTalkEnvelope } from "./envelope/read-envelope.ts";
export { readGovTalkEnvelope } from "./envelope/read-envelope.ts";
export type { GovTalkErrorClassification, GovTalkErrorKind } from "./envelope/classify.ts";
export type { GovTalkQualifier } from "./envelope/write-envelope.ts";

// IRmark
export type { IRmark } from "./irmark/compute.ts";
export { computeIRmark, irmarkCanonicalBody } from "./irmark/compute.ts";
export { base32Encode, irmarkToBase32 } from "./irmark/base32.ts";

// CT600: submitter side
export {
  CT600_CLASS,
  CT600_EARLIEST_PERIOD_START,
  CT600_NAME_MAX_LENGTH,
  CT600_SCHEMA_VERSION,
  DORMANT_REASON,
} from "./ct600/constants.ts";
export { toCtText } from "./ct600/ct-text.ts";
export type { Ct600NilReturn, Ct600NilReturnInput } from "./ct600/nil-return-input.ts";
export { ct600NilReturnInputSchema, parseCt600NilReturnInput } from "./ct600/nil-return-input.ts";
export { NIL_AMOUNT } from "./ct600/nil-return-body.ts";
export type { Ct600SubmitEnvelope, Ct600SubmitMessage } from "./ct600/submit-message.ts";
export { buildCt600SubmitMessage } from "./ct600/submit-message.ts";
export { buildCt600PollMessage } from "./ct600/poll-message.ts";
export { buildCt600DeleteMessage } from "./ct600/delete-message.ts";
export { CORRELATION_ID_PATTERN } from "./ct600/correlation-id.ts";
export type {
  Ct600Acknowledgement,
  Ct600Deleted,
  Ct600ErrorAnswer,
  Ct600Response,
  Ct600Success,
} from "./ct600/parse-response.ts";
export { DEFAULT_POLL_INTERVAL_SECONDS, parseCt600Response } from "./ct600/parse-response.ts";
export type { IRmarkReceipt } from "./ct600/irmark-receipt.ts";
export { receiptConfirmsIRmark } from "./ct600/irmark-receipt.ts";
export { TAX_ERROR_KINDS, classifyGovTalkErrors } from "./ct600/classify-errors.ts";
export type { Ct600DataRequestInput, Ct600DataRequestMessage } from "./ct600/data-request.ts";
export { buildCt600DataRequest, ct600DataRequestInputSchema } from "./ct600/data-request.ts";
export type { Ct600DataList, Ct600DataRecord, Ct600DataResponse } from "./ct600/parse-data-response.ts";
export { parseCt600DataResponse } from "./ct600/parse-data-response.ts";
export type { DataRequestStatus } from "./ct600/data-request-status.ts";
export { DATA_REQUEST_STATUS } from "./ct600/data-request-status.ts";
export { formatGovTalkTimeStamp, parseGovTalkTimeStamp } from "./ct600/govtalk-timestamp.ts";
export { londonWallClock, londonWallClockToEpochMs } from "./time/london-wall-clock.ts";
export type { LondonWallClock } from "./time/london-wall-clock.ts";
export type { XsdValidationResult } from "./xsd/validate-ct600.ts";
export { CT600_XSD_URL, validateCt600Body } from "./xsd/validate-ct600.ts";
export type { BusinessRuleFailure, BusinessRulesOptions } from "./business-rules/check-ct600-business-rules.ts";
export {
  BusinessRulesOutputError,
  CT600_BUSINESS_RULES_URL,
  checkCt600BusinessRules,
} from "./business-rules/check-ct600-business-rules.ts";
export { XSLTPROC_INSTALL_HINT, XsltprocError, XsltprocMissingError } from "./business-rules/xsltproc.ts";

// CT600: authority side (simulator)
export type {
  Ct600DeleteRequest,
  Ct600PollRequest,
  Ct600Request,
  Ct600ReturnSummary,
  Ct600SubmitRequest,
} from "./ct600/parse-request.ts";
export { parseCt600Request } from "./ct600/parse-request.ts";
export type { TaxErrorNumber } from "./ct600/answers/error-catalog.ts";
export { TAX_ERRORS, taxError, taxRuleError } from "./ct600/answers/error-catalog.ts";
export type { Ct600AcknowledgementInput } from "./ct600/answers/acknowledgement.ts";
export { buildCt600Acknowledgement } from "./ct600/answers/acknowledgement.ts";
export type { Ct600SuccessResponseInput } from "./ct600/answers/success-response.ts";
export { buildCt600SuccessResponse } from "./ct600/answers/success-response.ts";
export type { Ct600ErrorResponseInput } from "./ct600/answers/error-response.ts";
export { buildCt600ErrorResponse } from "./ct600/answers/error-response.ts";
export { buildCt600DeleteResponse } from "./ct600/answers/delete-response.ts";
export type { Ct600DataRequest } from "./ct600/parse-data-request.ts";
export { parseCt600DataRequest } from "./ct600/parse-data-request.ts";
export type { Ct600DataResponseInput } from "./ct600/answers/data-response.ts";
export { buildCt600DataResponse } from "./ct600/answers/data-response.ts";
export { hmrcEdgeAccessDeniedPage } from "./ct600/answers/edge-access-denied.ts";

// Registry: submitter side
export type { RegistryAuthMethod, RegistryCompanyType } from "./registry/constants.ts";
export {
  FORM_SUBMISSION_SCHEMA_LOCATION,
  REGISTRY_ACCOUNTS_CLASS,
  REGISTRY_AUTH_METHOD,
  REGISTRY_AUTH_METHODS,
  REGISTRY_COMPANY_TYPES,
  REGISTRY_DOCUMENT_FILENAME_MAX_LENGTH,
  REGISTRY_ENVELOPE_VERSION,
  REGISTRY_STATUS_CLASS,
} from "./registry/constants.ts";
export type { RegistryPresenter } from "./registry/credentials.ts";
export { md5Hex, presenterCredentialHashes, presenterCredentialsMatch } from "./registry/credentials.ts";
export {
  SUBMISSION_NUMBER_CAPACITY,
  SUBMISSION_NUMBER_PATTERN,
  TRANSACTION_ID_PATTERN,
  companyTypeForNumber,
  formatSubmissionNumber,
  isSubmissionNumber,
  newTransactionId,
} from "./registry/identifiers.ts";
export type { AccountsSubmissionInput, AccountsSubmissionMessage } from "./registry/form-submission.ts";
export { accountsSubmissionInputSchema, buildAccountsSubmission } from "./registry/form-submission.ts";
export type { SubmissionStatusQuery, SubmissionStatusRequestInput } from "./registry/status-request.ts";
export {
  buildSubmissionStatusRequest,
  createSubmissionStatusRequestBuilder,
  submissionStatusRequestInputSchema,
} from "./registry/status-request.ts";
export type {
  RegistryErrorAnswer,
  RegistryStatusAnswer,
  RegistrySubmitAcknowledgement,
} from "./registry/parse-response.ts";
export { parseAccountsSubmissionResponse, parseSubmissionStatusResponse } from "./registry/parse-response.ts";
export type {
  RegistryOutcome,
  RegistryRejection,
  RegistryStatusCode,
  RegistrySubmissionStatus,
} from "./registry/status.ts";
export { REGISTRY_STATUS_CODES, registryStatusOutcome } from "./registry/status.ts";
export { REGISTRY_ERROR_KINDS, classifyRegistryErrors, isDuplicateSubmissionError } from "./registry/classify-errors.ts";

// Registry: authority side (simulator)
export type {
  RegistryFormSubmissionRequest,
  RegistryRequest,
  RegistryStatusRequest,
} from "./registry/parse-request.ts";
export { parseRegistryRequest } from "./registry/parse-request.ts";
export type { SubmissionStatusInput } from "./registry/answers.ts";
export {
  REGISTRY_ERRORS,
  REGISTRY_INVALID_ENVELOPE_NUMBER,
  buildAccountsSubmissionAcknowledgement,
  buildRegistryErrorResponse,
  buildSubmissionStatusResponse,
} from "./registry/answers.ts";

// Secrets
export { PASSWORD_MASK, maskGatewayPassword } from "./secrets/mask-gateway-password.ts";
