import { addDays, addMonths, isValidIsoDate } from "@dormant/company-data";
import { findIllegalXmlChar } from "./escape-xml.ts";
import {
  isSupportedCompanyType,
  isSupportedJurisdiction,
  type RegistryCompanyType,
  type RegistryJurisdiction,
  type TradingStatus,
} from "./legal-form.ts";

/** Balance sheet figures at one balance sheet date, every amount in integer pence. */
export interface BalanceSheetFigures {
  /** Cash at bank and in hand (the only current asset of a dormant company). */
  readonly cash: number;
  /** Called-up share capital not paid; omit when the company has none to show. */
  readonly sharesNotPaid?: number;
  /** Creditors: amounts falling due within one year. */
  readonly creditors: number;
  /** Called-up share capital. */
  readonly shareCapital: number;
  /** Profit and loss account reserve; negative for accumulated losses. */
  readonly profitLossAccount: number;
}

export interface PriorYearFigures extends BalanceSheetFigures {
  readonly periodStart: string;
  /** Must be the day before the current period starts. */
  readonly periodEnd: string;
  /** Average number of employees in the prior period (default 0). */
  readonly averageEmployees?: number;
}

export interface DormantAccountsInput {
  readonly companyName: string;
  /** Registry company number, 8 characters such as `00000001` or `SC000001`. */
  readonly companyNumber: string;
  /** Registry company type code (public data API `type`); default `ltd`. */
  readonly registryCompanyType?: RegistryCompanyType;
  /** Registry jurisdiction code; when absent the country of registration is not stated. */
  readonly jurisdiction?: RegistryJurisdiction;
  /** First day of the accounting period, `YYYY-MM-DD`. */
  readonly periodStart: string;
  /** Last day of the accounting period, `YYYY-MM-DD`. */
  readonly periodEnd: string;
  /** Balance sheet date; must equal `periodEnd` (default). */
  readonly balanceSheetDate?: string;
  /** Date the board approved the accounts; after the balance sheet date. */
  readonly approvalDate: string;
  /** The director who signs the balance sheet, e.g. `Ada Lovelace`. */
  readonly directorName: string;
  /** The signatory's title under the signature; default `Director`. */
  readonly directorPosition?: string;
  /** Whether the company never traded or traded before becoming dormant; default `never-traded`. */
  readonly tradingStatus?: TradingStatus;
  /** Average number of employees in the period (default 0). */
  readonly averageEmployees?: number;
  readonly current: BalanceSheetFigures;
  /** Comparatives for the immediately preceding period, when known. */
  readonly priorYear?: PriorYearFigures;
}

export class DormantAccountsInputError extends Error {
  override readonly name = "DormantAccountsInputError";
  constructor(readonly problems: readonly string[]) {
    super(`Invalid dormant accounts input: ${problems.join("; ")}`);
  }
}

const COMPANY_NUMBER = /^[A-Z0-9]{8}$/;
const MAX_NAME_LENGTH = 160;
const MAX_PERIOD_MONTHS = 18;

function checkText(problems: string[], field: string, value: unknown, required: boolean): void {
  if (value === undefined && !required) return;
  if (typeof value !== "string" || value.trim() === "") {
    problems.push(`${field} must be a non-empty string`);
    return;
  }
  if (value.length > MAX_NAME_LENGTH) problems.push(`${field} is longer than ${MAX_NAME_LENGTH} characters`);
  const illegal = findIllegalXmlChar(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  const control = [...value].find((char) => /[\u0000-\u001f\u007f]/.test(char));
  if (illegal !== undefined || control !== undefined) problems.push(`${field} contains a control or non-character code point`);
}

function checkDate(problems: string[], field: string, value: unknown): value is string {
  if (typeof value === "string" && isValidIsoDate(value)) return true;
  problems.push(`${field} must be a YYYY-MM-DD calendar date`);
  return false;
}

function checkPence(problems: string[], field: string, value: unknown, allowNegative: boolean): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    problems.push(`${field} must be an integer number of pence`);
  } else if (!allowNegative && value < 0) {
    problems.push(`${field} cannot be negative`);
  }
}

function checkCount(problems: string[], field: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    problems.push(`${field} must be a non-negative integer`);
  }
}

function checkFigures(problems: string[], label: string, figures: BalanceSheetFigures): void {
  const before = problems.length;
  checkPence(problems, `${label}.cash`, figures.cash, false);
  if (figures.sharesNotPaid !== undefined) checkPence(problems, `${label}.sharesNotPaid`, figures.sharesNotPaid, false);
  checkPence(problems, `${label}.creditors`, figures.creditors, false);
  checkPence(problems, `${label}.shareCapital`, figures.shareCapital, false);
  checkPence(problems, `${label}.profitLossAccount`, figures.profitLossAccount, true);
  if (problems.length > before) return;
  const netAssets = figures.cash + (figures.sharesNotPaid ?? 0) - figures.creditors;
  const equity = figures.shareCapital + figures.profitLossAccount;
  if (netAssets !== equity) {
    problems.push(
      `${label} does not balance: net assets ${netAssets} pence (cash + share capital not paid - creditors) ` +
        `but capital and reserves ${equity} pence (share capital + profit and loss account)`,
    );
  }
}

function checkPeriod(problems: string[], label: string, start: string, end: string): void {
  if (end < start) problems.push(`${label} ends before it starts`);
  else if (end >= addMonths(start, MAX_PERIOD_MONTHS)) problems.push(`${label} is longer than ${MAX_PERIOD_MONTHS} months`);
}

/** Every problem with the input; empty when it can be rendered. */
export function findDormantAccountsInputProblems(input: DormantAccountsInput): string[] {
  const problems: string[] = [];
  checkText(problems, "companyName", input.companyName, true);
  if (typeof input.companyNumber !== "string" || !COMPANY_NUMBER.test(input.companyNumber)) {
    problems.push("companyNumber must be 8 characters A-Z or 0-9");
  }
  if (input.registryCompanyType !== undefined && !isSupportedCompanyType(input.registryCompanyType)) {
    problems.push(
      `registryCompanyType ${JSON.stringify(input.registryCompanyType)} is not a company type that can file micro-entity dormant accounts`,
    );
  }
  if (input.jurisdiction !== undefined && !isSupportedJurisdiction(input.jurisdiction)) {
    problems.push(`jurisdiction ${JSON.stringify(input.jurisdiction)} is not a UK registry jurisdiction`);
  }
  checkText(problems, "directorName", input.directorName, true);
  checkText(problems, "directorPosition", input.directorPosition, false);
  if (input.tradingStatus !== undefined && input.tradingStatus !== "never-traded" && input.tradingStatus !== "no-longer-trading") {
    problems.push("tradingStatus must be never-traded or no-longer-trading");
  }
  checkCount(problems, "averageEmployees", input.averageEmployees);

  const datesValid = [
    checkDate(problems, "periodStart", input.periodStart),
    checkDate(problems, "periodEnd", input.periodEnd),
    checkDate(problems, "approvalDate", input.approvalDate),
  ].every(Boolean);
  if (input.balanceSheetDate !== undefined && input.balanceSheetDate !== input.periodEnd) {
    problems.push("balanceSheetDate must equal periodEnd");
  }
  if (datesValid) {
    checkPeriod(problems, "the accounting period", input.periodStart, input.periodEnd);
    if (input.approvalDate <= input.periodEnd) problems.push("approvalDate must be after the balance sheet date");
  }
  checkFigures(problems, "current", input.current);

  const prior = input.priorYear;
  if (prior !== undefined) {
    const priorDatesValid = [
      checkDate(problems, "priorYear.periodStart", prior.periodStart),
      checkDate(problems, "priorYear.periodEnd", prior.periodEnd),
    ].every(Boolean);
    if (priorDatesValid) {
      checkPeriod(problems, "the prior period", prior.periodStart, prior.periodEnd);
      if (datesValid && prior.periodEnd !== addDays(input.periodStart, -1)) {
        problems.push("priorYear.periodEnd must be the day before periodStart");
      }
    }
    checkCount(problems, "priorYear.averageEmployees", prior.averageEmployees);
    checkFigures(problems, "priorYear", prior);
  }
  return problems;
}

/** @throws DormantAccountsInputError listing every problem found. */
export function assertValidDormantAccountsInput(input: DormantAccountsInput): void {
  const problems = findDormantAccountsInputProblems(input);
  if (problems.length > 0) throw new DormantAccountsInputError(problems);
}
