import type { z } from "zod";
import type { ErrorDetail } from "../errors.ts";

function fieldPath(path: readonly PropertyKey[], root: string): string {
  if (path.length === 0) return root;
  return path.reduce<string>((text, key, index) => {
    if (typeof key === "number") return `${text}[${key}]`;
    return index === 0 ? String(key) : `${text}.${String(key)}`;
  }, "");
}

/**
 * Turns a zod failure into the `details` of a VALIDATION_ERROR: one entry per violated field,
 * named by its dotted path (`credentials.government_gateway_password`); an unknown field gets its
 * own entry. Messages never echo the offending value (it may be a secret).
 */
export function validationDetails(error: z.ZodError, root = "body"): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) details.push({ field: fieldPath([...issue.path, key], root), message: "is not a known field" });
      continue;
    }
    details.push({ field: fieldPath(issue.path, root), message: issue.message });
  }
  return details;
}
