import { z } from "zod";

export const API_KEY_HEADER = "X-API-Key";
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const REQUEST_ID_HEADER = "X-Request-Id";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 64;

/** Rate-limit headers present on every authenticated response (spec section 8). */
export const RATE_LIMIT_HEADERS = [
  "X-RateLimit-Limit-Minute",
  "X-RateLimit-Remaining-Minute",
  "X-RateLimit-Limit-Day",
  "X-RateLimit-Remaining-Day",
] as const;

export const IdempotencyKey = z
  .string({ error: "is required on submit requests" })
  .min(1, "must not be empty")
  .max(IDEMPOTENCY_KEY_MAX_LENGTH, `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`)
  .regex(/^[\x20-\x7e]+$/, "must contain printable ASCII characters only")
  .meta({
    description: `Required on submits, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters; kept 24 hours. The same key with the same body returns the original response.`,
    example: "7c1e9a52-0f7b-4f1e-9f0e-1a2b3c4d5e6f",
  });
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;

/** The submit routes' headers (names lower-case, as Node delivers them). */
export const SubmitHeaders = z.object({ "idempotency-key": IdempotencyKey });
