import type { z } from "zod";
import { GovTalkInputError } from "../errors.ts";

/** Parses with a zod schema, turning failures into a GovTalkInputError (paths and messages only, never values). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
  throw new GovTalkInputError(`invalid ${what}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`, issues);
}
