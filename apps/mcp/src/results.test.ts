import { describe, expect, it } from "vitest";
import { jsonResult, withoutSecrets } from "./results.ts";

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
