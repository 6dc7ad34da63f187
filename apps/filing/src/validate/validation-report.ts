import type { ValidationCheck, ValidationPart, ValidationProblem } from "@dormant/contracts";
import { FilingPlanProblems } from "../submit/company-lookup.ts";
import type { NewFiling } from "../submit/new-filing.ts";

/** What a validation found so far: the checks that ran and the problems they reported. */
export interface Findings {
  checks: ValidationCheck[];
  problems: ValidationProblem[];
}

/** The report's common fields for a planned filing (or one that could not be planned: `plan` undefined). */
export function report<D>(plan: NewFiling | undefined, findings: Findings, clientReference: string | undefined) {
  return {
    valid: findings.problems.length === 0,
    derived_values: plan ? (plan.derivedValues as D) : null,
    period_split: plan ? plan.periodSplit : null,
    parts: plan ? partsOf(plan) : [],
    problems: findings.problems,
    checks: findings.checks,
    ...(clientReference === undefined ? {} : { client_reference: clientReference }),
  };
}

function partsOf(plan: NewFiling): ValidationPart[] {
  if (plan.filingType === "accounts") return [{ part_number: 1, period: plan.period }];
  return plan.parts.map((part) => ({ part_number: part.partNumber, period: part.period }));
}

/**
 * Plans the filing as a submit would; a plan refused by the business rules or the iXBRL's
 * mandatory facts becomes findings (failed checks and their problems) instead of an error.
 * Anything else (the registry unavailable) is the caller's error, as for a submit.
 */
export async function planOrFindings(
  plan: () => Promise<NewFiling>,
  checksAfterRules: readonly ValidationCheck["name"][],
): Promise<{ plan: NewFiling; findings: Findings } | { plan: undefined; findings: Findings }> {
  try {
    const planned = await plan();
    return { plan: planned, findings: { checks: checksRun(checksAfterRules, undefined), problems: [] } };
  } catch (error) {
    if (!(error instanceof FilingPlanProblems)) throw error;
    const problems = error.problems.map(({ path, message, code }) => ({ field: path, code, message }));
    const failedAt = problems.some((p) => p.code === "BUSINESS_RULE") ? "business_rules" : checksAfterRules[0];
    return { plan: undefined, findings: { checks: checksRun(checksAfterRules, failedAt), problems } };
  }
}

/** `business_rules` then the later checks, up to the one that failed (the ones after it did not run). */
function checksRun(after: readonly ValidationCheck["name"][], failedAt: ValidationCheck["name"] | undefined): ValidationCheck[] {
  const checks: ValidationCheck[] = [];
  for (const name of ["business_rules" as const, ...after]) {
    checks.push({ name, passed: name !== failedAt });
    if (name === failedAt) break;
  }
  return checks;
}
