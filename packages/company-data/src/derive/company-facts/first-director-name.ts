import type { FieldProblem } from "../../validation/field-problem.ts";
import { deriveFirstActiveDirector } from "../first-active-director.ts";
import type { CompanyFactsInput } from "./facts-input.ts";

/** The first active director's name, or a problem at `field` when the registry lists none. */
export function firstDirectorName(input: CompanyFactsInput, field: string, problems: FieldProblem[]): string | undefined {
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
