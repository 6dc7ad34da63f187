import type { Request } from "express";
import { AppError, IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from "@dormant/contracts";

/**
 * The request's `Idempotency-Key` under the public contract's rule (required, 1 to 64 printable
 * ASCII characters), else 400 VALIDATION_ERROR. The route's validation checks the same schema
 * first; this keeps the middleware safe wherever it is mounted.
 */
export function readIdempotencyKey(req: Request): string {
  const result = IdempotencyKey.safeParse(req.get(IDEMPOTENCY_KEY_HEADER));
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? "is invalid";
  throw new AppError("VALIDATION_ERROR", `${IDEMPOTENCY_KEY_HEADER} ${message}`, {
    details: [{ field: IDEMPOTENCY_KEY_HEADER, message }],
  });
}
