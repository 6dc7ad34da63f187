import { fromPence } from "../../money.ts";
import { balanceSheetProblems } from "../../validation/balance-sheet.ts";
import type { FieldProblem } from "../../validation/field-problem.ts";
import { deriveDormantBalanceSheet } from "../dormant-balance-sheet.ts";
import { deriveRegistryCompanyType } from "../entity-type.ts";
import { derivePriorYearFigures } from "../prior-year-figures.ts";
import { approvalDate } from "./approval-date.ts";
import { commonFacts } from "./common-facts.ts";
import type { AccountsFacts, CompanyFactsResult } from "./company-facts.ts";
import type { AccountsFactsInput } from "./facts-input.ts";
import { firstDirectorName } from "./first-director-name.ts";
import { givenBalanceSheet } from "./given-balance-sheet.ts";
import { textOverride } from "./text-override.ts";

export const DEFAULT_DIRECTOR_POSITION = "Director";

/**
 * The facts of an accounts filing: the common facts, the register, the approval, the balance
 * sheet (which must balance) and the comparatives.
 */
export function accountsFacts(input: AccountsFactsInput): CompanyFactsResult<AccountsFacts> {
  const overrides = input.overrides ?? {};
  const problems: FieldProblem[] = [];
  const facts = commonFacts(input, problems);
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
    textOverride("approval.director_position", overrides.approval?.director_position, problems) ?? DEFAULT_DIRECTOR_POSITION;
  const approvedOn = approvalDate(input, problems);
  const amountProblems: FieldProblem[] = [];
  const given = givenBalanceSheet(input, amountProblems);
  problems.push(...amountProblems);

  if (facts === null || directorName === undefined || approvedOn === undefined || registryCompanyType === null) {
    return { ok: false, problems };
  }
  const priorYear = facts.isFirstYear ? null : derivePriorYearFigures(input.filingHistory, { periodStart: facts.period.start });
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
