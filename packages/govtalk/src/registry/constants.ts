/** The registry's XML gateway speaks GovTalk envelope version 1.0. */
export const REGISTRY_ENVELOPE_VERSION = "1.0";
/** GovTalk `Class` (= FormIdentifier) of an accounts submission. */
export const REGISTRY_ACCOUNTS_CLASS = "Accounts";
/** GovTalk `Class` of a status poll. */
export const REGISTRY_STATUS_CLASS = "GetSubmissionStatus";
/**
 * `Authentication/Method` values the registry's envelope schema (Egov_ch-v2-0.xsd) enumerates for
 * presenter credentials sent as hashes. Both carry the lower-case MD5 hex of the presenter ID
 * (`SenderID`) and of the presenter authentication code (`Value`). `clear` is what the XML
 * filing service's own examples and the public clients that file with it send; `CHMD5` is the
 * method of the registry's XML data (output) gateway. Sources: apps/registry-submitter README,
 * "Protocol decisions (with sources)".
 */
export const REGISTRY_AUTH_METHODS = ["clear", "CHMD5"] as const;
export type RegistryAuthMethod = (typeof REGISTRY_AUTH_METHODS)[number];
/** The method sent when the presenter configuration names none. */
export const REGISTRY_AUTH_METHOD: RegistryAuthMethod = "clear";
/**
 * `xsi:schemaLocation` of `FormSubmission`, as in the registry's own accounts examples and the
 * public clients that file with it: the Header namespace and the FormSubmission-v2-11 schema.
 */
export const FORM_SUBMISSION_SCHEMA_LOCATION =
  "http://xmlgw.companieshouse.gov.uk/Header http://xmlgw.companieshouse.gov.uk/v1-0/schema/forms/FormSubmission-v2-11.xsd";
/** `Document/Filename` is at most 32 characters in FormSubmission-v2-11.xsd. */
export const REGISTRY_DOCUMENT_FILENAME_MAX_LENGTH = 32;
/** Registry company types (jurisdiction of registration). */
export const REGISTRY_COMPANY_TYPES = ["EW", "SC", "NI", "R", "OC", "SO", "NC"] as const;
export type RegistryCompanyType = (typeof REGISTRY_COMPANY_TYPES)[number];
