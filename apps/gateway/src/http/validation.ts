import { AppError, type ErrorDetail } from "@dormant/contracts";

/** The 400 VALIDATION_ERROR that lists every problem of a request (`details`: one per field). */
export function invalidRequest(details: ErrorDetail[]): AppError {
  const count = details.length;
  return new AppError("VALIDATION_ERROR", `The request is invalid (${count} problem${count === 1 ? "" : "s"}; see details)`, { details });
}
