import { randomUUID } from "node:crypto";

/** The Idempotency-Key of a submit: the caller's, or a random UUID (36 characters; the API allows 64). */
export function idempotencyKeyFor(given: string | undefined): string {
  return given ?? randomUUID();
}
