import { describe, expect, it } from "vitest";
import { jsonResult, secretValuesOf, withoutSecretValues, withoutSecrets } from "./results.ts";

describe("withoutSecrets", () => {
  it("drops credentials, passwords, authentication codes and keys at any depth", () => {
    const value = {
      filing_id: "fil_1",
      credentials: { government_gateway_password: "pw" },
      parts: [{ company_auth_code: "ABC123", password: "x", ok: 1 }],
      nested: { api_key: "api_live_x", apiKey: "k", keep: "yes" },
    };
    expect(withoutSecrets(value)).toEqual({ filing_id: "fil_1", parts: [{ ok: 1 }], nested: { keep: "yes" } });
  });

  it("is applied to every JSON result", () => {
    expect(JSON.stringify(jsonResult({ a: 1, credentials: { government_gateway_password: "pw-123" } }))).not.toContain("pw-123");
  });
});

describe("withoutSecretValues", () => {
  it("finds the passwords and authentication codes of a tool's arguments, not the other credentials", () => {
    const args = { utr: "1234567890", credentials: { government_gateway_id: "AGENT-01", government_gateway_password: "pw-12345" } };
    expect(secretValuesOf(args)).toEqual(["pw-12345"]);
    expect(secretValuesOf({ credentials: { company_auth_code: "A1B2C3" } })).toEqual(["A1B2C3"]);
  });

  it("redacts every quote of a secret value in any string, at any depth, and ignores very short ones", () => {
    const report = { problems: [{ field: "company_auth_code", message: "A1B2C3 is not A1B2C3x" }], n: 1, ok: true, none: null };
    expect(withoutSecretValues(report, ["A1B2C3", "x"])).toEqual({
      problems: [{ field: "company_auth_code", message: "[redacted] is not [redacted]x" }],
      n: 1,
      ok: true,
      none: null,
    });
  });
});
