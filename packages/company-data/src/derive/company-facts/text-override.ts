import type { FieldProblem } from "../../validation/field-problem.ts";

/** A non-blank override, trimmed; a problem at `path` when it is blank. */
export function textOverride(path: string, value: string | undefined, problems: FieldProblem[]): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text.length === 0) {
    problems.push({ path, message: "must not be blank" });
    return undefined;
  }
  return text;
}
