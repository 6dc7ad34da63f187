/**
 * Namespaces, entry point and concept names of the FRC 2026 taxonomy suite (FRS 102 entry point,
 * which also carries the FRS 105 micro-entity concepts), plus the Inline XBRL namespaces and the
 * transformation registry used for formatted values. Everything the renderer tags is named here so
 * that moving to a later taxonomy year is a change to this file only.
 */

export const NS = {
  xhtml: "http://www.w3.org/1999/xhtml",
  ix: "http://www.xbrl.org/2013/inlineXBRL",
  ixt: "http://www.xbrl.org/inlineXBRL/transformation/2020-02-12",
  xbrli: "http://www.xbrl.org/2003/instance",
  xbrldi: "http://xbrl.org/2006/xbrldi",
  link: "http://www.xbrl.org/2003/linkbase",
  xlink: "http://www.w3.org/1999/xlink",
  iso4217: "http://www.xbrl.org/2003/iso4217",
  core: "http://xbrl.frc.org.uk/fr/2026-01-01/core",
  bus: "http://xbrl.frc.org.uk/cd/2026-01-01/business",
  direp: "http://xbrl.frc.org.uk/reports/2026-01-01/direp",
  countries: "http://xbrl.frc.org.uk/cd/2026-01-01/countries",
} as const;

/** The FRC taxonomy entry point referenced by `link:schemaRef` (FRS 105 filers use the FRS 102 one). */
export const FRC_ENTRY_POINT = "https://xbrl.frc.org.uk/FRS-102/2026-01-01/FRS-102-2026-01-01.xsd";

/** Context identifier scheme for UK company registration numbers. */
export const REGISTRY_IDENTIFIER_SCHEME = "http://www.companieshouse.gov.uk/";

/** Transformation registry 4 formats (prefix `ixt`). */
export const FORMAT = {
  numDotDecimal: "ixt:num-dot-decimal",
  fixedZero: "ixt:fixed-zero",
  dateDayMonthNameYearEn: "ixt:date-day-monthname-year-en",
} as const;

export const CONCEPT = {
  entityName: "bus:EntityCurrentLegalOrRegisteredName",
  registeredNumber: "bus:UKCompaniesHouseRegisteredNumber",
  periodStart: "bus:StartDateForPeriodCoveredByReport",
  periodEnd: "bus:EndDateForPeriodCoveredByReport",
  balanceSheetDate: "bus:BalanceSheetDate",
  approvalDate: "core:DateAuthorisationFinancialStatementsForIssue",
  directorSigning: "core:DirectorSigningFinancialStatements",
  officerName: "bus:NameEntityOfficer",
  dormant: "bus:EntityDormantTruefalse",
  principalActivities: "bus:DescriptionPrincipalActivities",
  tradingStatus: "bus:EntityTradingStatus",
  accountingStandards: "bus:AccountingStandardsApplied",
  accountsStatus: "bus:AccountsStatusAuditedOrUnaudited",
  accountsType: "bus:AccountsType",
  legalForm: "bus:LegalFormEntity",
  countryOfIncorporation: "bus:CountryFormationOrIncorporation",
  averageEmployees: "core:AverageNumberEmployeesDuringPeriod",
  sharesNotPaid: "core:CalledUpShareCapitalNotPaidNotExpressedAsCurrentAsset",
  currentAssets: "core:CurrentAssets",
  creditors: "core:Creditors",
  netCurrentAssets: "core:NetCurrentAssetsLiabilities",
  totalAssetsLessCurrentLiabilities: "core:TotalAssetsLessCurrentLiabilities",
  netAssets: "core:NetAssetsLiabilities",
  equity: "core:Equity",
  statementAuditExemptionDormant:
    "direp:StatementThatCompanyEntitledToExemptionFromAuditUnderSection480CompaniesAct2006RelatingToDormantCompanies",
  statementMembersNotRequiredAudit: "direp:StatementThatMembersHaveNotRequiredCompanyToObtainAnAudit",
  statementDirectorsResponsibilities: "direp:StatementThatDirectorsAcknowledgeTheirResponsibilitiesUnderCompaniesAct",
  statementMicroEntityProvisions: "direp:StatementThatAccountsHaveBeenPreparedInAccordanceWithProvisionsSmallCompaniesRegime",
} as const;

export const DIMENSION = {
  entityOfficers: "bus:EntityOfficersDimension",
  tradingStatus: "bus:EntityTradingStatusDimension",
  accountingStandards: "bus:AccountingStandardsDimension",
  accountsStatus: "bus:AccountsStatusDimension",
  accountsType: "bus:AccountsTypeDimension",
  legalForm: "bus:LegalFormEntityDimension",
  countriesRegions: "countries:CountriesRegionsDimension",
  maturities: "core:MaturitiesOrExpirationPeriodsDimension",
  equityClasses: "core:EquityClassesDimension",
} as const;

export const MEMBER = {
  director1: "bus:Director1",
  neverTraded: "bus:EntityHasNeverTraded",
  noLongerTrading: "bus:EntityNoLongerTradingButTradedInPast",
  microEntities: "bus:Micro-entities",
  auditExemptNoAccountantsReport: "bus:AuditExempt-NoAccountantsReport",
  fullAccounts: "bus:FullAccounts",
  withinOneYear: "core:WithinOneYear",
  shareCapital: "core:ShareCapital",
  retainedEarnings: "core:RetainedEarningsAccumulatedLosses",
} as const;

/** Units declared by the renderer: `unitRef` id -> measure. */
export const UNIT = {
  GBP: "iso4217:GBP",
  pure: "xbrli:pure",
} as const;

export type UnitId = keyof typeof UNIT;
