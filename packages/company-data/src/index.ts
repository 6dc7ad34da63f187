// Calendar dates and money
export {
  addDays,
  addMonths,
  addMonthsKeepingMonthEnd,
  calendarDateAt,
  compareDates,
  daysBetween,
  daysInMonth,
  formatIsoDate,
  fromDayNumber,
  isLastDayOfMonth,
  isLeapYear,
  isValidIsoDate,
  parseIsoDate,
  toDayNumber,
} from "./calendar-date.ts";
export type { CalendarDate, IsoDate } from "./calendar-date.ts";
export { formatPence, fromPence, isMoneyAmount, toPence } from "./money.ts";
export type { Pence } from "./money.ts";
export { isLongerThanMonths, isLongerThanTwelveMonths, periodEndAfterMonths } from "./accounting-period.ts";
export type { DatePeriod } from "./accounting-period.ts";
export { balanceSheetAmounts, capitalAndReserves, netAssets } from "./balance-sheet.ts";
export type { BalanceSheetAmounts, BalanceSheetPence } from "./balance-sheet.ts";

// Registry public data API: schemas (shared with authority-sim) and client
export {
  accountingReferenceDateSchema,
  accountsFiguresSchema,
  companyAccountsSchema,
  companyNumberSchema,
  companyProfileSchema,
  filingHistoryItemSchema,
  filingHistorySchema,
  isoDateSchema,
  lastAccountsSchema,
  moneyAmountSchema,
  nextAccountsSchema,
  officerListSchema,
  officerSchema,
  registeredOfficeAddressSchema,
} from "./schemas.ts";
export type {
  AccountingReferenceDate,
  AccountsFigures,
  CompanyAccounts,
  CompanyProfile,
  FilingHistory,
  FilingHistoryItem,
  LastAccounts,
  NextAccounts,
  Officer,
  OfficerList,
  RegisteredOfficeAddress,
} from "./schemas.ts";
export { createRegistryDataClient } from "./client.ts";
export type {
  FilingHistoryQuery,
  RegistryDataClient,
  RegistryDataClientOptions,
  RegistryRequestOptions,
} from "./client.ts";
export { CompanyNotFoundError, RegistryUnavailableError } from "./errors.ts";
export type { RegistryUnavailableErrorOptions, RegistryUnavailableReason } from "./errors.ts";
export { parseRetryAfter } from "./retry-after.ts";

// Derivation rules
export { annualAccountsFiled, accountsMadeUpDates, lastAccountsMadeUpTo } from "./derive/accounts-filings.ts";
export type { FiledAccounts } from "./derive/accounts-filings.ts";
export { derivePeriodStart } from "./derive/period-start.ts";
export type { PeriodStartOptions } from "./derive/period-start.ts";
export { deriveIsFirstYear } from "./derive/is-first-year.ts";
export type { FirstYearOptions } from "./derive/is-first-year.ts";
export { formatOfficerName } from "./derive/officer-name.ts";
export { deriveFirstActiveDirector, SIGNING_DIRECTOR_ROLES } from "./derive/first-active-director.ts";
export type { FirstActiveDirector } from "./derive/first-active-director.ts";
export {
  deriveEntityType,
  deriveRegistryCompanyType,
  entityTypeHasShareCapital,
  isSupportedEntityType,
  SUPPORTED_ENTITY_TYPES,
} from "./derive/entity-type.ts";
export type { EntityType, RegistryCompanyType, SupportedEntityType } from "./derive/entity-type.ts";
export { derivePriorYearFigures } from "./derive/prior-year-figures.ts";
export type { PriorYearFigures, PriorYearOptions } from "./derive/prior-year-figures.ts";
export { DEFAULT_SHARE_CAPITAL_PENCE, deriveShareCapital } from "./derive/share-capital.ts";
export { deriveDormantCash } from "./derive/dormant-cash.ts";
export type { DormantCashInput } from "./derive/dormant-cash.ts";
export { deriveDormantBalanceSheet } from "./derive/dormant-balance-sheet.ts";
export type { DormantBalanceSheetInput } from "./derive/dormant-balance-sheet.ts";
export { CT600_MAX_PERIOD_MONTHS, splitCt600Period } from "./derive/ct600-period-split.ts";
export { deriveCompanyDeadlines } from "./derive/deadlines/derive-company-deadlines.ts";
export { accountsFilingMonths, registryDueOn } from "./derive/deadlines/registry-due-date.ts";
export { CT600_FILING_MONTHS } from "./derive/deadlines/ct600-periods.ts";
export { nextReferenceDate } from "./derive/deadlines/next-reference-date.ts";
export type { AccountsPeriodDeadline, CompanyDeadlines, Ct600PeriodDeadline } from "./derive/deadlines/deadline-types.ts";
export { deriveCompanyFacts } from "./derive/company-facts/derive-company-facts.ts";
export { DEFAULT_DECLARANT_STATUS } from "./derive/company-facts/declarant.ts";
export { DEFAULT_DIRECTOR_POSITION } from "./derive/company-facts/accounts-facts.ts";
export type { AccountsFactsInput, CompanyFactsInput, Ct600FactsInput } from "./derive/company-facts/facts-input.ts";
export type {
  AccountsDerivedValues,
  AccountsFacts,
  CompanyFacts,
  CompanyFactsResult,
  Ct600DerivedValues,
  Ct600Facts,
} from "./derive/company-facts/company-facts.ts";

// Business validation
export type { FieldProblem } from "./validation/field-problem.ts";
export { MAX_ACCOUNTING_PERIOD_MONTHS, validatePeriod } from "./validation/period.ts";
export { amountToPence, balanceSheetProblems, validateBalanceSheet } from "./validation/balance-sheet.ts";
export type { AmountConversion } from "./validation/balance-sheet.ts";

// The sandbox's made-up registry (test keys)
export {
  SANDBOX_COMPANY_NAME,
  SANDBOX_DIRECTOR_NAME,
  sandboxCompanyRecord,
  sandboxJurisdiction,
  sandboxProfile,
  sandboxReferenceMonth,
} from "./sandbox/sandbox-company.ts";
