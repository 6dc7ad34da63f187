/** GovTalk `Class` of CT600 messages. */
export const CT600_CLASS = "HMRC-CT-CT600";
/** `SchemaVersion` quoted in the IRheader manifest for CT schema v1.994 (CT-2014-v1-994.xsd). */
export const CT600_SCHEMA_VERSION = "2025-v1.994";
/** Earliest `PeriodCovered/From` the CT schema accepts. */
export const CT600_EARLIEST_PERIOD_START = "2015-04-01";
/** Reason given for both missing accounts and missing computations on a dormant nil return. */
export const DORMANT_REASON = "Company dormant";
/** Maximum lengths of the CT600 name fields (`CompanyName`, `Declaration/Name`, `Status`). */
export const CT600_NAME_MAX_LENGTH = 56;
