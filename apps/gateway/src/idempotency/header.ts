import type { Request } from "express";
import { AppError } from "@dormant/contracts";

export const MAX_IDEMPOTENCY_KEY_LENGTH = 64;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

function invalid(message: string): AppError {
  return new AppError("VALIDATION_ERROR", message, { details: [{ field: "Idempotency-Key", message }] });
}

/** The request's `Idempotency-Key` (required, 1 to 64 printable ASCII characters), else 400. */
export function readIdempotencyKey(req: Request): string {
  const value = req.get("idempotency-key");
  if (value === undefined || value === "") throw invalid("The Idempotency-Key header is required");
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw invalid(`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  if (!PRINTABLE_ASCII.test(value)) throw invalid("Idempotency-Key must contain printable ASCII characters only");
  return value;
}
