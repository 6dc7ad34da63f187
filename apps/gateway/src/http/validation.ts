import { AppError, type ErrorDetail, validationDetails } from "@dormant/contracts";
import type { z } from "zod";

/**
 * Validates the parts of a request (headers, query, body) and answers one 400
 * VALIDATION_ERROR listing every problem of every part.
 */
export class RequestValidation {
  private readonly details: ErrorDetail[] = [];

  /** The parsed value, or undefined after recording its problems under `root` (e.g. "body"). */
  check<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> | undefined {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    this.details.push(...validationDetails(result.error, root));
    return undefined;
  }

  /** Throws the 400 when anything failed. */
  finish(): void {
    if (this.details.length === 0) return;
    const count = this.details.length;
    throw new AppError("VALIDATION_ERROR", `The request is invalid (${count} problem${count === 1 ? "" : "s"}; see details)`, {
      details: this.details,
    });
  }
}
