/** The registry's XML gateway speaks GovTalk envelope version 1.0. */
export const REGISTRY_ENVELOPE_VERSION = "1.0";
/** GovTalk `Class` (= FormIdentifier) of an accounts submission. */
export const REGISTRY_ACCOUNTS_CLASS = "Accounts";
/** GovTalk `Class` of a status poll. */
export const REGISTRY_STATUS_CLASS = "GetSubmissionStatus";
/**
 * `Authentication/Method` of the registry's envelope schema for MD5-hashed presenter
 * credentials (its schema enumerates clear | CHMD5 | W3Csigned).
 */
export const REGISTRY_AUTH_METHOD = "CHMD5";
/** Registry company types (jurisdiction of registration). */
export const REGISTRY_COMPANY_TYPES = ["EW", "SC", "NI", "R", "OC", "SO", "NC"] as const;
export type RegistryCompanyType = (typeof REGISTRY_COMPANY_TYPES)[number];
