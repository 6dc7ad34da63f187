import type { FieldProblem } from "../../validation/field-problem.ts";
import { splitCt600Period } from "../ct600-period-split.ts";
import { commonFacts } from "./common-facts.ts";
import type { CompanyFactsResult, Ct600Facts } from "./company-facts.ts";
import { deriveDeclarant } from "./declarant.ts";
import type { Ct600FactsInput } from "./facts-input.ts";

/** The facts of a CT600 filing: the common facts, the declarant and the returns to send. */
export function ct600Facts(input: Ct600FactsInput): CompanyFactsResult<Ct600Facts> {
  const problems: FieldProblem[] = [];
  const facts = commonFacts(input, problems);
  const declarant = deriveDeclarant(input, problems);

  if (facts === null || problems.length > 0 || declarant === undefined) {
    return { ok: false, problems };
  }
  const ct600Periods = splitCt600Period(facts.period.start, facts.period.end);
  return {
    ok: true,
    facts: {
      filingType: "ct600",
      ...facts,
      declarant,
      ct600Periods,
      periodSplit: ct600Periods.length > 1,
      derivedValues: {
        company_name: facts.companyName,
        period_start: facts.period.start,
        is_first_year: facts.isFirstYear,
        declarant_name: declarant.name,
        declarant_status: declarant.status,
      },
    },
  };
}
