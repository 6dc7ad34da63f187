import { describe, expect, it } from "vitest";
import { submitFingerprint } from "./fingerprint.ts";

describe("submit fingerprint", () => {
  it("ignores key order and absent fields, not values or the filing type", () => {
    const a = submitFingerprint("ct600", { company_number: "00000001", period_end: "2026-03-31", company: { name: "A" } });
    const b = submitFingerprint("ct600", {
      company: { name: "A" },
      period_end: "2026-03-31",
      declarant: undefined,
      company_number: "00000001",
    });
    expect(a).toBe(b);
    expect(submitFingerprint("ct600", { company_number: "00000001", period_end: "2026-03-30", company: { name: "A" } })).not.toBe(a);
    expect(submitFingerprint("accounts", { company_number: "00000001", period_end: "2026-03-31", company: { name: "A" } })).not.toBe(a);
  });
});
