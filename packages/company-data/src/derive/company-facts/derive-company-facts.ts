/**
 * Everything a filing needs from the registry's public data, with the caller's overrides
 * applied and the business rules checked: the one call the filing service makes per submit.
 * Pure: the registry data and today's date come in as arguments.
 */
import { parseIsoDate } from "../../calendar-date.ts";
import { accountsFacts } from "./accounts-facts.ts";
import type { AccountsFacts, CompanyFacts, CompanyFactsResult, Ct600Facts } from "./company-facts.ts";
import { ct600Facts } from "./ct600-facts.ts";
import type { AccountsFactsInput, CompanyFactsInput, Ct600FactsInput } from "./facts-input.ts";

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
