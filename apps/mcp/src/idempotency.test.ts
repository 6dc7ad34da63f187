import { describe, expect, it } from "vitest";
import { deriveIdempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH, submitIdempotencyKey } from "./idempotency.ts";

const args = {
  company_number: "00000001",
  utr: "1234567890",
  period_end: "2026-03-31",
  credentials: { government_gateway_id: "AGENT-01", government_gateway_password: "hunter2" },
};

describe("deriveIdempotencyKey", () => {
  it("is the same for the same key, tool and arguments, whatever their key order", () => {
    const reordered = {
      credentials: { government_gateway_password: "hunter2", government_gateway_id: "AGENT-01" },
      period_end: "2026-03-31",
      utr: "1234567890",
      company_number: "00000001",
    };
    expect(deriveIdempotencyKey("api_test_a", "submit_ct600", args)).toBe(deriveIdempotencyKey("api_test_a", "submit_ct600", reordered));
  });

  it("differs when any argument, the tool or the API key differs", () => {
    const key = deriveIdempotencyKey("api_test_a", "submit_ct600", args);
    expect(deriveIdempotencyKey("api_test_a", "submit_ct600", { ...args, period_end: "2026-04-30" })).not.toBe(key);
    expect(
      deriveIdempotencyKey("api_test_a", "submit_ct600", {
        ...args,
        credentials: { ...args.credentials, government_gateway_password: "x" },
      }),
    ).not.toBe(key);
    expect(deriveIdempotencyKey("api_test_a", "submit_accounts", args)).not.toBe(key);
    expect(deriveIdempotencyKey("api_test_b", "submit_ct600", args)).not.toBe(key);
  });

  it("fits the gateway's limit and never contains the arguments' text", () => {
    const key = deriveIdempotencyKey("api_test_a", "submit_ct600", args);
    expect(key).toMatch(/^mcp-[0-9a-f]{60}$/);
    expect(key.length).toBeLessThanOrEqual(MAX_IDEMPOTENCY_KEY_LENGTH);
    expect(key).not.toContain("hunter2");
  });
});

describe("submitIdempotencyKey", () => {
  it("uses the caller's key as given and leaves it out of the body", () => {
    expect(submitIdempotencyKey("api_test_a", "submit_ct600", { ...args, idempotency_key: "mine-1" })).toEqual({
      key: "mine-1",
      body: args,
      derived: false,
    });
  });

  it("derives the key from the body alone when none is given", () => {
    const { key, body, derived } = submitIdempotencyKey("api_test_a", "submit_ct600", { ...args, idempotency_key: undefined });
    expect(derived).toBe(true);
    expect(body).toEqual(args);
    expect(key).toBe(deriveIdempotencyKey("api_test_a", "submit_ct600", args));
  });
});
