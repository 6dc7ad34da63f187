/**
 * Everything a filing needs from the registry's public data, with the caller's overrides
 * applied and the business rules checked: the one call the filing service makes per submit.
 * Pure: the registry data and today's date come in as arguments.
 */
import { DeclarantStatus, type AccountsOverrides, type Ct600Overrides } from "@dormant/contracts";
import type { DatePeriod } from "../accounting-period.ts";
import type { BalanceSheetPence } from "../balance-sheet.ts";
import { compareDates, isValidIsoDate, parseIsoDate, type IsoDate } from "../calendar-date.ts";
import { fromPence } from "../money.ts";
import type { CompanyProfile, FilingHistory, OfficerList } from "../schemas.ts";
import { amountToPence, balanceSheetProblems } from "../validation/balance-sheet.ts";
import type { FieldProblem } from "../validation/field-problem.ts";
import { validatePeriod } from "../validation/period.ts";
import { splitCt600Period } from "./ct600-period-split.ts";
import { deriveDormantBalanceSheet } from "./dormant-balance-sheet.ts";
import {
  deriveRegistryCompanyType,
  isSupportedEntityType,
  SUPPORTED_ENTITY_TYPES,
  type RegistryCompanyType,
  type SupportedEntityType,
} from "./entity-type.ts";
import { deriveFirstActiveDirector } from "./first-active-director.ts";
import { deriveIsFirstYear } from "./is-first-year.ts";
import { derivePeriodStart } from "./period-start.ts";
import { derivePriorYearFigures, type PriorYearFigures } from "./prior-year-figures.ts";

/** Who signs a CT600 when the request names no declarant: the registry's first active director. */
export const DEFAULT_DECLARANT_STATUS: DeclarantStatus = "Director";
export const DEFAULT_DIRECTOR_POSITION = "Director";

/** The overrides reach here typed by the contracts, but are still checked: callers may be plain JavaScript. */
function isDeclarantStatus(value: string): value is DeclarantStatus {
  return DeclarantStatus.safeParse(value).success;
}

interface FactsInputBase {
  /** From the registry data client. */
  profile: CompanyProfile;
  officers: OfficerList;
  filingHistory: FilingHistory;
  /** The request's `period_end`. */
  periodEnd: IsoDate;
  /** The current date in the authorities' time zone (calendarDateAt(new Date())). */
  today: IsoDate;
}

export interface Ct600FactsInput extends FactsInputBase {
  filingType: "ct600";
  overrides?: Ct600Overrides;
}

export interface AccountsFactsInput extends FactsInputBase {
  filingType: "accounts";
  overrides?: AccountsOverrides;
}

export type CompanyFactsInput = Ct600FactsInput | AccountsFactsInput;

/** `data.derived_values` of the CT600 submit response. */
export interface Ct600DerivedValues {
  company_name: string;
  period_start: IsoDate;
  is_first_year: boolean;
  declarant_name: string;
  declarant_status: DeclarantStatus;
}

/** `data.derived_values` of the accounts submit response (amounts in pounds). */
export interface AccountsDerivedValues {
  company_name: string;
  entity_type: SupportedEntityType;
  period_start: IsoDate;
  is_first_year: boolean;
  director_name: string;
  approval_date: IsoDate;
  share_capital: number;
  cash: number;
}

interface CommonFacts {
  companyNumber: string;
  companyName: string;
  /** The registry's company_status (active, dissolved, ...), for information: never refused here. */
  companyStatus: string;
  entityType: SupportedEntityType;
  /** The accounting period being filed. */
  period: DatePeriod;
  isFirstYear: boolean;
}

export interface Ct600Facts extends CommonFacts {
  filingType: "ct600";
  declarant: { name: string; status: DeclarantStatus };
  /** One return per part: the period itself, or its first 12 months and the rest. */
  ct600Periods: readonly DatePeriod[];
  periodSplit: boolean;
  derivedValues: Ct600DerivedValues;
}

export interface AccountsFacts extends CommonFacts {
  filingType: "accounts";
  registryCompanyType: RegistryCompanyType;
  approval: { date: IsoDate; directorName: string; directorPosition: string };
  balanceSheet: BalanceSheetPence;
  /** Comparatives; always null in a first year. */
  priorYear: PriorYearFigures | null;
  derivedValues: AccountsDerivedValues;
}

export type CompanyFacts = Ct600Facts | AccountsFacts;

export type CompanyFactsResult<Facts extends CompanyFacts> =
  | { ok: true; facts: Facts }
  | { ok: false; problems: FieldProblem[] };

/**
 * Derives the facts for a CT600 or an accounts filing. Each value is the request's override
 * when given, else derived from the registry (see the derive/* rules). Returns every problem
 * found (bad overrides, period rules, no director to sign, balance sheet that does not
 * balance, company type or register not supported) as field-level problems; throws only on a
 * caller bug (an invalid `today`).
 */
export function deriveCompanyFacts(input: Ct600FactsInput): CompanyFactsResult<Ct600Facts>;
export function deriveCompanyFacts(input: AccountsFactsInput): CompanyFactsResult<AccountsFacts>;
export function deriveCompanyFacts(input: CompanyFactsInput): CompanyFactsResult<CompanyFacts>;
export function deriveCompanyFacts(input: CompanyFactsInput): CompanyFactsResult<CompanyFacts> {
  parseIsoDate(input.today);
  return input.filingType === "ct600" ? ct600Facts(input) : accountsFacts(input);
}

interface CommonOverrides {
  companyName: string | undefined;
  entityType: string | undefined;
  periodStart: IsoDate | undefined;
  isFirstYear: boolean | undefined;
}

/** A non-blank override, trimmed; a problem at `path` when it is blank. */
function textOverride(path: string, value: string | undefined, problems: FieldProblem[]): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text.length === 0) {
    problems.push({ path, message: "must not be blank" });
    return undefined;
  }
  return text;
}

function commonFacts(
  input: CompanyFactsInput,
  overrides: CommonOverrides,
  problems: FieldProblem[],
): CommonFacts | null {
  const { profile, filingHistory, periodEnd, today } = input;
  const companyNumber = profile.company_number;

  const companyName = textOverride("company.name", overrides.companyName, problems) ?? profile.company_name;

  const entityType = overrides.entityType?.trim() ?? profile.type;
  if (!isSupportedEntityType(entityType)) {
    problems.push(
      overrides.entityType === undefined
        ? {
            path: "company_number",
            message: `the registry lists company ${companyNumber} as "${entityType}", a type this service does not file for`,
          }
        : {
            path: "company.entity_type",
            message: `"${entityType}" is not an entity type this service files for (one of: ${SUPPORTED_ENTITY_TYPES.join(", ")})`,
          },
    );
  }

  if (!isValidIsoDate(periodEnd)) {
    problems.push({ path: "period_end", message: "must be a real date written YYYY-MM-DD" });
    return null;
  }
  const start = overrides.periodStart ?? derivePeriodStart(profile, { periodEnd, filingHistory });
  problems.push(...validatePeriod(start, periodEnd, today));
  if (!isValidIsoDate(start) || !isSupportedEntityType(entityType)) return null;

  const isFirstYear = overrides.isFirstYear ?? deriveIsFirstYear(profile, { periodStart: start, filingHistory });
  return {
    companyNumber,
    companyName,
    companyStatus: profile.company_status,
    entityType,
    period: { start, end: periodEnd },
    isFirstYear,
  };
}

/** The first active director's name, or a problem at `field` when the registry lists none. */
function firstDirectorName(input: CompanyFactsInput, field: string, problems: FieldProblem[]): string | undefined {
  const director = deriveFirstActiveDirector(input.officers);
  if (director === null) {
    problems.push({
      path: field,
      message: `the registry lists no active director for company ${input.profile.company_number}; give ${field}`,
    });
    return undefined;
  }
  return director.name;
}

function ct600Facts(input: Ct600FactsInput): CompanyFactsResult<Ct600Facts> {
  const overrides = input.overrides ?? {};
  const problems: FieldProblem[] = [];
  const facts = commonFacts(
    input,
    {
      companyName: overrides.company?.name,
      entityType: undefined,
      periodStart: overrides.period?.start,
      isFirstYear: undefined,
    },
    problems,
  );

  const status = overrides.declarant?.status ?? DEFAULT_DECLARANT_STATUS;
  if (!isDeclarantStatus(status)) {
    problems.push({ path: "declarant.status", message: `must be one of ${DeclarantStatus.options.join(", ")}` });
  }
  let name = textOverride("declarant.name", overrides.declarant?.name, problems);
  if (overrides.declarant?.name === undefined) {
    if (status === DEFAULT_DECLARANT_STATUS) {
      name = firstDirectorName(input, "declarant.name", problems);
    } else if (isDeclarantStatus(status)) {
      problems.push({
        path: "declarant.name",
        message: `is required when declarant.status is "${status}": only a Director defaults to the registry's first director`,
      });
    }
  }

  if (facts === null || problems.length > 0 || name === undefined || !isDeclarantStatus(status)) {
    return { ok: false, problems };
  }
  const ct600Periods = splitCt600Period(facts.period.start, facts.period.end);
  return {
    ok: true,
    facts: {
      filingType: "ct600",
      ...facts,
      declarant: { name, status },
      ct600Periods,
      periodSplit: ct600Periods.length > 1,
      derivedValues: {
        company_name: facts.companyName,
        period_start: facts.period.start,
        is_first_year: facts.isFirstYear,
        declarant_name: name,
        declarant_status: status,
      },
    },
  };
}

function approvalDate(input: AccountsFactsInput, problems: FieldProblem[]): IsoDate | undefined {
  const date = input.overrides?.approval?.date ?? input.today;
  if (!isValidIsoDate(date)) {
    problems.push({ path: "approval.date", message: "must be a real date written YYYY-MM-DD" });
    return undefined;
  }
  // (A period end in the future is reported on period_end already.)
  const periodHasEnded = isValidIsoDate(input.periodEnd) && compareDates(input.periodEnd, input.today) <= 0;
  if (periodHasEnded && compareDates(date, input.periodEnd) < 0) {
    problems.push({
      path: "approval.date",
      message: `accounts cannot be approved (${date}) before the end of their period (${input.periodEnd})`,
    });
  }
  if (compareDates(date, input.today) > 0) {
    problems.push({ path: "approval.date", message: `approval date ${date} is in the future (today is ${input.today})` });
  }
  return date;
}

function givenBalanceSheet(input: AccountsFactsInput, problems: FieldProblem[]): Partial<BalanceSheetPence> {
  const overrides: NonNullable<AccountsOverrides["balance_sheet"]> = input.overrides?.balance_sheet ?? {};
  const given: Partial<BalanceSheetPence> = {};
  const fields = [
    ["share_capital", "shareCapital"],
    ["cash", "cash"],
    ["creditors", "creditors"],
    ["profit_loss_account", "profitLossAccount"],
  ] as const;
  for (const [field, key] of fields) {
    const pounds = overrides[field];
    if (pounds === undefined) continue;
    const converted = amountToPence(`balance_sheet.${field}`, pounds);
    if (converted.ok) given[key] = converted.pence;
    else problems.push(converted.problem);
  }
  return given;
}

function accountsFacts(input: AccountsFactsInput): CompanyFactsResult<AccountsFacts> {
  const overrides = input.overrides ?? {};
  const problems: FieldProblem[] = [];
  const facts = commonFacts(
    input,
    {
      companyName: overrides.company?.name,
      entityType: overrides.company?.entity_type,
      periodStart: overrides.period?.start,
      isFirstYear: overrides.period?.is_first_year,
    },
    problems,
  );
  const companyNumber = input.profile.company_number;

  const registryCompanyType = deriveRegistryCompanyType(input.profile);
  if (registryCompanyType === null) {
    problems.push({
      path: "company_number",
      message: `cannot tell which register (England and Wales, Scotland, Northern Ireland) company ${companyNumber} is on`,
    });
  }

  const directorName =
    overrides.approval?.director_name === undefined
      ? firstDirectorName(input, "approval.director_name", problems)
      : textOverride("approval.director_name", overrides.approval.director_name, problems);
  const directorPosition =
    textOverride("approval.director_position", overrides.approval?.director_position, problems) ??
    DEFAULT_DIRECTOR_POSITION;
  const approvedOn = approvalDate(input, problems);
  const amountProblems: FieldProblem[] = [];
  const given = givenBalanceSheet(input, amountProblems);
  problems.push(...amountProblems);

  if (facts === null || directorName === undefined || approvedOn === undefined || registryCompanyType === null) {
    return { ok: false, problems };
  }
  const priorYear = facts.isFirstYear
    ? null
    : derivePriorYearFigures(input.filingHistory, { periodStart: facts.period.start });
  const balanceSheet = deriveDormantBalanceSheet({ priorYear, entityType: facts.entityType, given });
  // With an unusable amount the sheet was completed with derived figures: do not judge it.
  if (amountProblems.length === 0) problems.push(...balanceSheetProblems(balanceSheet));
  if (problems.length > 0) return { ok: false, problems };

  return {
    ok: true,
    facts: {
      filingType: "accounts",
      ...facts,
      registryCompanyType,
      approval: { date: approvedOn, directorName, directorPosition },
      balanceSheet,
      priorYear,
      derivedValues: {
        company_name: facts.companyName,
        entity_type: facts.entityType,
        period_start: facts.period.start,
        is_first_year: facts.isFirstYear,
        director_name: directorName,
        approval_date: approvedOn,
        share_capital: fromPence(balanceSheet.shareCapital),
        cash: fromPence(balanceSheet.cash),
      },
    },
  };
}
