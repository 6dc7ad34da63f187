import { isValidIsoDate, type IsoDate } from "../../calendar-date.ts";
import type { FieldProblem } from "../../validation/field-problem.ts";
import { validatePeriod } from "../../validation/period.ts";
import { isSupportedEntityType, SUPPORTED_ENTITY_TYPES } from "../entity-type.ts";
import { deriveIsFirstYear } from "../is-first-year.ts";
import { derivePeriodStart } from "../period-start.ts";
import type { CommonFacts } from "./company-facts.ts";
import type { CompanyFactsInput } from "./facts-input.ts";
import { textOverride } from "./text-override.ts";

interface CommonOverrides {
  companyName: string | undefined;
  entityType: string | undefined;
  periodStart: IsoDate | undefined;
  isFirstYear: boolean | undefined;
}

/** Both filings may override the company name and period start; only accounts the entity type and first year. */
function commonOverrides(input: CompanyFactsInput): CommonOverrides {
  const accounts = input.filingType === "accounts" ? input.overrides : undefined;
  return {
    companyName: input.overrides?.company?.name,
    entityType: accounts?.company?.entity_type,
    periodStart: input.overrides?.period?.start,
    isFirstYear: accounts?.period?.is_first_year,
  };
}

/**
 * The company and period facts both filings share, each the override when given, else derived
 * from the registry. Null (with the reasons in `problems`) when the period or the entity type
 * cannot be used.
 */
export function commonFacts(input: CompanyFactsInput, problems: FieldProblem[]): CommonFacts | null {
  const { profile, filingHistory, periodEnd, today } = input;
  const overrides = commonOverrides(input);
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
