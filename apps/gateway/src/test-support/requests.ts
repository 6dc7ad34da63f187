import { randomUUID } from "node:crypto";
import type { Express } from "express";
import request from "supertest";

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

/** POST a submit with a key and an Idempotency-Key (a fresh one unless given; null sends none). */
export function submit(app: Express, type: "ct600" | "accounts", apiKey: string, body: unknown, key: string | null = idempotencyKey()) {
  const call = request(app).post(`/api/v1/filings/${type}`).set("X-API-Key", apiKey);
  if (key !== null) call.set("Idempotency-Key", key);
  return call.send(body as object);
}

/** GET an API path with a key. */
export function get(app: Express, path: string, apiKey: string) {
  return request(app).get(`/api/v1${path}`).set("X-API-Key", apiKey);
}

export const RATE_LIMIT_HEADERS = [
  "x-ratelimit-limit-minute",
  "x-ratelimit-remaining-minute",
  "x-ratelimit-limit-day",
  "x-ratelimit-remaining-day",
];

/** POST /filings/{type}/validate (no Idempotency-Key: validation changes nothing). */
export function validate(app: Express, type: "ct600" | "accounts", apiKey: string, body: unknown) {
  return request(app)
    .post(`/api/v1/filings/${type}/validate`)
    .set("X-API-Key", apiKey)
    .send(body as object);
}
