import { AppError, type ErrorDetail } from "@dormant/contracts";
import {
  calendarDateAt,
  CompanyNotFoundError,
  RegistryUnavailableError,
  type CompanyFacts,
  type CompanyFactsResult,
  type FieldProblem,
} from "@dormant/company-data";
import type { RegistryCompanyRecord, RegistryDataSource } from "../registry-data/registry-data-source.ts";

/** Retry-After when the registry gave none. */
const REGISTRY_RETRY_AFTER_SECONDS = 30;

/** Which check a plan problem comes from: the business rules, or the accounts iXBRL's mandatory facts. */
export type PlanProblemCode = "BUSINESS_RULE" | "IXBRL_MANDATORY_FACT";

/**
 * Problems that stop a filing from being planned, as the 400 VALIDATION_ERROR the caller of a
 * submit sees (one detail per field problem); `problems` keeps which check found each, for the
 * validate-only report.
 */
export class FilingPlanProblems extends AppError {
  constructor(readonly problems: readonly (FieldProblem & { code: PlanProblemCode })[]) {
    const details: ErrorDetail[] = problems.map((p) => ({ field: p.path, message: p.message }));
    super("VALIDATION_ERROR", "The filing does not satisfy the business rules", { details });
  }
}

/** Business-rule problems as the 400 VALIDATION_ERROR the caller sees, one detail per field problem. */
export function businessValidationError(problems: readonly FieldProblem[], code: PlanProblemCode = "BUSINESS_RULE"): FilingPlanProblems {
  return new FilingPlanProblems(problems.map((problem) => ({ ...problem, code })));
}

/**
 * The company's registry record. A company the registry does not know is the caller's mistake
 * (VALIDATION_ERROR on company_number); the registry not answering (down, too slow, our request
 * limit reached) is REGISTRY_UNAVAILABLE with Retry-After.
 */
export async function lookUpCompany(registry: RegistryDataSource, companyNumber: string): Promise<RegistryCompanyRecord> {
  try {
    return await registry.getCompany(companyNumber);
  } catch (error) {
    if (error instanceof CompanyNotFoundError) {
      throw businessValidationError([{ path: "company_number", message: `company ${companyNumber} is not known to the registry` }]);
    }
    if (error instanceof RegistryUnavailableError) {
      throw new AppError("REGISTRY_UNAVAILABLE", "The company registry is temporarily unavailable; retry later", {
        retryAfterSeconds: error.retryAfterSeconds ?? REGISTRY_RETRY_AFTER_SECONDS,
        cause: error,
      });
    }
    throw error;
  }
}

/** What every facts derivation starts from: the company's registry record, the period end, today. */
export type FactsBasis = RegistryCompanyRecord & { periodEnd: string; today: string };

/**
 * The company's registry record (`lookUpCompany`) and the facts `derive` makes of it with the
 * request's overrides; problems with the business rules are one VALIDATION_ERROR listing them.
 */
export async function deriveFilingFacts<Facts extends CompanyFacts>(
  registry: RegistryDataSource,
  input: { company_number: string; period_end: string },
  now: Date,
  derive: (basis: FactsBasis) => CompanyFactsResult<Facts>,
): Promise<{ record: RegistryCompanyRecord; facts: Facts }> {
  const record = await lookUpCompany(registry, input.company_number);
  const result = derive({ ...record, periodEnd: input.period_end, today: calendarDateAt(now) });
  if (!result.ok) throw businessValidationError(result.problems);
  return { record, facts: result.facts };
}
