import { describe, expect, it } from "vitest";
import { parseSandboxFilingId, sandboxFilingId, sandboxReference } from "./filing-id.ts";

const SECRET = "sandbox-test-secret-0123456789abcdef";
const body = { company_number: "SC000002", utr: "1234567890", period_end: "2024-03-31" };

describe("sandbox filing ids", () => {
  it("are fil_test_{type}_{company}_{16 hex} and parse back", () => {
    const id = sandboxFilingId(SECRET, "ct600", "SC000002", "key-1", body);
    expect(id).toMatch(/^fil_test_ct600_SC000002_[0-9a-f]{16}$/);
    expect(parseSandboxFilingId(id)).toEqual({ filingId: id, filingType: "ct600", companyNumber: "SC000002", hash: id.slice(-16) });
  });

  it("depend on the key, the body (not its key order), the type and the server secret", () => {
    const id = sandboxFilingId(SECRET, "ct600", "SC000002", "key-1", body);
    expect(
      sandboxFilingId(SECRET, "ct600", "SC000002", "key-1", { period_end: "2024-03-31", utr: "1234567890", company_number: "SC000002" }),
    ).toBe(id);
    const others = [
      sandboxFilingId(SECRET, "ct600", "SC000002", "key-2", body),
      sandboxFilingId(SECRET, "ct600", "SC000002", "key-1", { ...body, utr: "1234567891" }),
      sandboxFilingId(SECRET, "accounts", "SC000002", "key-1", body).replace("accounts", "ct600"),
      sandboxFilingId(`${SECRET}x`, "ct600", "SC000002", "key-1", body),
    ];
    expect(new Set([id, ...others]).size).toBe(5);
  });

  it.each([
    "fil_test_ct600_SC000002",
    "fil_live_ct600_SC000002_0123456789abcdef",
    "fil_test_CT600_SC000002_0123456789abcdef",
    "fil_test_ct600_SC000002_0123456789abcdeg",
  ])("rejects %s", (id) => expect(parseSandboxFilingId(id)).toBeUndefined());

  it("derive stable references of the requested length", () => {
    const ref = parseSandboxFilingId("fil_test_ct600_00000001_0123456789abcdef")!;
    expect(sandboxReference(ref, "CORR", 32)).toMatch(/^SANDBOX-CORR-[0-9A-F]{32}$/);
    expect(sandboxReference(ref, "IRU", 16)).toBe(sandboxReference(ref, "IRU", 16));
    expect(sandboxReference(ref, "IRU", 16)).not.toBe(sandboxReference(ref, "SUB", 16).replace("SUB", "IRU"));
  });
});
