import { randomUUID } from "node:crypto";

/** A valid CT600 submit body (override any field). */
export function ct600Body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    company_number: "00000001",
    utr: "1234567890",
    period_end: "2024-03-31",
    credentials: { government_gateway_id: "GW-USER-1", government_gateway_password: "correct horse battery staple" },
    ...overrides,
  };
}

/** A valid accounts submit body (override any field). */
export function accountsBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { company_number: "00000001", period_end: "2024-03-31", credentials: { company_auth_code: "AB12CD" }, ...overrides };
}

/** A fresh Idempotency-Key. */
export function idempotencyKey(): string {
  return `test-${randomUUID()}`;
}
