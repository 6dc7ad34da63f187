import { describe, expect, it } from "vitest";
import { canonicalJson, requestFingerprint } from "./fingerprint.ts";

describe("request fingerprint", () => {
  it("writes JSON with keys sorted at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson("x\"y")).toBe('"x\\"y"');
  });

  it("is the same for the same request whatever the key order, and differs otherwise", () => {
    const secret = "s".repeat(32);
    const base = { method: "POST", path: "/api/v1/filings/ct600" };
    const one = requestFingerprint({ ...base, body: { utr: "1234567890", company_number: "00000001" } }, secret);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint({ ...base, body: { company_number: "00000001", utr: "1234567890" } }, secret)).toBe(one);
    expect(requestFingerprint({ ...base, body: { company_number: "00000001", utr: "1234567891" } }, secret)).not.toBe(one);
    expect(requestFingerprint({ ...base, path: "/api/v1/filings/accounts", body: { utr: "1234567890", company_number: "00000001" } }, secret)).not.toBe(one);
    expect(requestFingerprint({ ...base, method: "PUT", body: { utr: "1234567890", company_number: "00000001" } }, secret)).not.toBe(one);
    expect(requestFingerprint({ ...base, body: { utr: "1234567890", company_number: "00000001" } }, "t".repeat(32))).not.toBe(one);
  });
});
