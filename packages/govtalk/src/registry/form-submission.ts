import { z } from "zod";
import { isValidIsoDate } from "@dormant/company-data";
import { parseInput } from "../envelope/parse-input.ts";
import { appendSenderDetails, serializeMessage, startGovTalkMessage } from "../envelope/write-envelope.ts";
import { NS } from "../xml/namespaces.ts";
import {
  FORM_SUBMISSION_SCHEMA_LOCATION,
  REGISTRY_ACCOUNTS_CLASS,
  REGISTRY_AUTH_METHOD,
  REGISTRY_AUTH_METHODS,
  REGISTRY_COMPANY_TYPES,
  REGISTRY_DOCUMENT_FILENAME_MAX_LENGTH,
  REGISTRY_ENVELOPE_VERSION,
} from "./constants.ts";
import { presenterCredentialHashes } from "./credentials.ts";
import { SUBMISSION_NUMBER_PATTERN, TRANSACTION_ID_PATTERN } from "./identifiers.ts";

const calendarDate = z.string().refine(isValidIsoDate, "must be a calendar date YYYY-MM-DD");

export const registryPresenterSchema = z.object({
  presenterId: z.string().min(1),
  presenterAuthCode: z.string().min(1),
  emailAddress: z
    .string()
    .regex(/^[A-Za-z0-9.\-_]{1,64}@[A-Za-z0-9.\-_]{1,64}$/, "must be a plain e-mail address")
    .optional(),
  /** `Authentication/Method`: `clear` (default) or `CHMD5`; the values are MD5 hashes either way. */
  authMethod: z.enum(REGISTRY_AUTH_METHODS).default(REGISTRY_AUTH_METHOD),
});

/** A dormant accounts submission to the registry's XML gateway. */
export const accountsSubmissionInputSchema = z.object({
  /** The filing agent's presenter account (hashed with MD5 into the envelope). */
  presenter: registryPresenterSchema,
  /** GovTalk TransactionID of this message (see newTransactionId). */
  transactionId: z.string().regex(TRANSACTION_ID_PATTERN, "must be 1-32 upper-case hexadecimal digits"),
  gatewayTest: z.boolean(),
  /** 6 characters, unique per presenter forever (see formatSubmissionNumber). */
  submissionNumber: z.string().regex(SUBMISSION_NUMBER_PATTERN, "must be 6 upper-case letters or digits"),
  companyNumber: z
    .string()
    .transform((value) => value.trim().toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{8}$/, "must be 8 letters or digits")),
  companyType: z.enum(REGISTRY_COMPANY_TYPES),
  /** As registered (the registry checks it); 1-160 characters. */
  companyName: z.string().trim().min(1).max(160),
  /** The company authentication code: 6 characters, case-sensitive; never logged. */
  companyAuthCode: z.string().regex(/^[A-Za-z0-9]{6}$/, "must be 6 letters or digits"),
  /** Package reference the registry allocated to this software. */
  packageReference: z.string().trim().min(1).max(32),
  dateSigned: calendarDate,
  contactName: z.string().trim().min(1).max(80).optional(),
  contactNumber: z.string().trim().min(1).max(20).optional(),
  document: z.object({
    /** The iXBRL accounts (text is encoded as UTF-8). */
    content: z.union([z.string().min(1), z.instanceof(Uint8Array).refine((bytes) => bytes.length > 0, "must not be empty")]),
    /** At most 32 characters (FormSubmission-v2-11.xsd), e.g. `00000001-20260331.xhtml`. */
    filename: z.string().trim().min(1).max(REGISTRY_DOCUMENT_FILENAME_MAX_LENGTH),
    /** Date of the document; the signing date when omitted. */
    date: calendarDate.optional(),
    contentType: z.string().default("application/xml"),
  }),
});

export type AccountsSubmissionInput = z.input<typeof accountsSubmissionInputSchema>;

/** The message to POST and the identifiers to keep for polling. */
export interface AccountsSubmissionMessage {
  xml: string;
  submissionNumber: string;
  transactionId: string;
}

/**
 * Builds the registry `Accounts` request: GovTalk 1.0 envelope with MD5-hashed presenter
 * credentials (Method `clear` unless the presenter names `CHMD5`) and a `FormSubmission` (with
 * its `xsi:schemaLocation`) carrying the iXBRL accounts base64-encoded in `Document/Data`. Throws GovTalkInputError on invalid input (no value is echoed).
 */
export function buildAccountsSubmission(input: AccountsSubmissionInput): AccountsSubmissionMessage {
  const data = parseInput(accountsSubmissionInputSchema, input, "accounts submission input");
  const { document, root, header } = startGovTalkMessage({
    envelopeVersion: REGISTRY_ENVELOPE_VERSION,
    class: REGISTRY_ACCOUNTS_CLASS,
    qualifier: "request",
    transactionId: data.transactionId,
    gatewayTest: data.gatewayTest,
  });
  const hashes = presenterCredentialHashes(data.presenter);
  appendSenderDetails(header, {
    senderId: hashes.senderId,
    method: data.presenter.authMethod,
    value: hashes.authenticationValue,
    ...(data.presenter.emailAddress === undefined ? {} : { emailAddress: data.presenter.emailAddress }),
  });
  root.ele("GovTalkDetails").ele("Keys");

  const submission = root
    .ele("Body")
    .ele(NS.registryHeader, "FormSubmission")
    .att(NS.xmlns, "xmlns:xsi", NS.xsi)
    .att(NS.xsi, "xsi:schemaLocation", FORM_SUBMISSION_SCHEMA_LOCATION);
  const formHeader = submission.ele("FormHeader");
  formHeader.ele("CompanyNumber").txt(data.companyNumber);
  formHeader.ele("CompanyType").txt(data.companyType);
  formHeader.ele("CompanyName").txt(data.companyName);
  formHeader.ele("CompanyAuthenticationCode").txt(data.companyAuthCode);
  formHeader.ele("PackageReference").txt(data.packageReference);
  formHeader.ele("Language").txt("EN");
  formHeader.ele("FormIdentifier").txt(REGISTRY_ACCOUNTS_CLASS);
  formHeader.ele("SubmissionNumber").txt(data.submissionNumber);
  if (data.contactName !== undefined) formHeader.ele("ContactName").txt(data.contactName);
  if (data.contactNumber !== undefined) formHeader.ele("ContactNumber").txt(data.contactNumber);
  submission.ele("DateSigned").txt(data.dateSigned);
  submission.ele("Form");
  const attached = submission.ele("Document");
  const bytes = typeof data.document.content === "string" ? Buffer.from(data.document.content, "utf8") : Buffer.from(data.document.content);
  attached.ele("Data").txt(bytes.toString("base64"));
  attached.ele("Date").txt(data.document.date ?? data.dateSigned);
  attached.ele("Filename").txt(data.document.filename);
  attached.ele("ContentType").txt(data.document.contentType);
  attached.ele("Category").txt("ACCOUNTS");

  return { xml: serializeMessage(document), submissionNumber: data.submissionNumber, transactionId: data.transactionId };
}
