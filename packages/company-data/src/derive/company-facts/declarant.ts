import { DeclarantStatus } from "@dormant/contracts";
import type { FieldProblem } from "../../validation/field-problem.ts";
import type { Ct600FactsInput } from "./facts-input.ts";
import { firstDirectorName } from "./first-director-name.ts";
import { textOverride } from "./text-override.ts";

/** Who signs a CT600 when the request names no declarant: the registry's first active director. */
export const DEFAULT_DECLARANT_STATUS: DeclarantStatus = "Director";

/** The overrides reach here typed by the contracts, but are still checked: callers may be plain JavaScript. */
function isDeclarantStatus(value: string): value is DeclarantStatus {
  return DeclarantStatus.safeParse(value).success;
}

/**
 * Who signs the CT600: the request's declarant, else a Director named after the registry's first
 * active director. Undefined (with the reasons in `problems`) when the status is not one the
 * return takes or no name is given or derivable.
 */
export function deriveDeclarant(input: Ct600FactsInput, problems: FieldProblem[]): { name: string; status: DeclarantStatus } | undefined {
  const declarant = input.overrides?.declarant;
  const status = declarant?.status ?? DEFAULT_DECLARANT_STATUS;
  if (!isDeclarantStatus(status)) {
    problems.push({ path: "declarant.status", message: `must be one of ${DeclarantStatus.options.join(", ")}` });
  }
  let name = textOverride("declarant.name", declarant?.name, problems);
  if (declarant?.name === undefined) {
    if (status === DEFAULT_DECLARANT_STATUS) {
      name = firstDirectorName(input, "declarant.name", problems);
    } else if (isDeclarantStatus(status)) {
      problems.push({
        path: "declarant.name",
        message: `is required when declarant.status is "${status}": only a Director defaults to the registry's first director`,
      });
    }
  }
  if (name === undefined || !isDeclarantStatus(status)) return undefined;
  return { name, status };
}
