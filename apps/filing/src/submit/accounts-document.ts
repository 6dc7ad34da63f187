import {
  addDays,
  derivePeriodStart,
  type AccountsFacts,
  type CompanyProfile,
  type FieldProblem,
  type FilingHistory,
} from "@dormant/company-data";
import {
  findDormantAccountsInputProblems,
  type DormantAccountsInput,
  type PriorYearFigures,
  type RegistryCompanyType,
  type RegistryJurisdiction,
} from "@dormant/documents";

const JURISDICTIONS: readonly string[] = ["england-wales", "wales", "scotland", "northern-ireland"];

/**
 * The comparatives, when they are the immediately preceding period's: the registry's prior
 * figures made up to the day before this period starts. Their period starts where the registry
 * says that period started (derivePeriodStart up to that made-up date). Figures made up to any
 * other date (e.g. when the caller overrode period.start) are left out rather than misdated.
 */
function comparatives(facts: AccountsFacts, profile: CompanyProfile, filingHistory: FilingHistory): PriorYearFigures | undefined {
  const prior = facts.priorYear;
  if (!prior || addDays(prior.madeUpTo, 1) !== facts.period.start) return undefined;
  return {
    periodStart: derivePeriodStart(profile, { periodEnd: prior.madeUpTo, filingHistory }),
    periodEnd: prior.madeUpTo,
    cash: prior.cash,
    creditors: prior.creditors,
    shareCapital: prior.shareCapital,
    profitLossAccount: prior.profitLossAccount,
  };
}

/** The renderer's input from the derived facts; amounts stay in pence. */
export function dormantAccountsInput(facts: AccountsFacts, profile: CompanyProfile, filingHistory: FilingHistory): DormantAccountsInput {
  const jurisdiction =
    profile.jurisdiction !== undefined && JURISDICTIONS.includes(profile.jurisdiction)
      ? (profile.jurisdiction as RegistryJurisdiction)
      : undefined;
  const priorYear = comparatives(facts, profile, filingHistory);
  return {
    companyName: facts.companyName,
    companyNumber: facts.companyNumber,
    registryCompanyType: facts.entityType as RegistryCompanyType,
    ...(jurisdiction ? { jurisdiction } : {}),
    periodStart: facts.period.start,
    periodEnd: facts.period.end,
    approvalDate: facts.approval.date,
    directorName: facts.approval.directorName,
    directorPosition: facts.approval.directorPosition,
    current: {
      cash: facts.balanceSheet.cash,
      creditors: facts.balanceSheet.creditors,
      shareCapital: facts.balanceSheet.shareCapital,
      profitLossAccount: facts.balanceSheet.profitLossAccount,
    },
    ...(priorYear ? { priorYear } : {}),
  };
}

/**
 * Rules the accounts document adds to the derivation's: the board approves accounts after the
 * balance sheet date (the registry rejects same-day approval), and public companies cannot file
 * micro-entity accounts. Anything else the renderer refuses is reported against the body.
 */
export function accountsDocumentProblems(input: DormantAccountsInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (input.approvalDate <= input.periodEnd) {
    problems.push({ path: "approval.date", message: `accounts must be approved after the end of their period (${input.periodEnd})` });
  }
  if (input.registryCompanyType === ("plc" as RegistryCompanyType)) {
    problems.push({ path: "company.entity_type", message: "public limited companies cannot file dormant micro-entity accounts" });
  }
  if (problems.length > 0) return problems;
  return findDormantAccountsInputProblems(input).map((message) => ({ path: "body", message }));
}
