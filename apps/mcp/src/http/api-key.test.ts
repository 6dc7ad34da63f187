import { describe, expect, it } from "vitest";
import { apiKeyOf, keyDigest, sameKey } from "./api-key.ts";

describe("apiKeyOf", () => {
  it("reads X-API-Key, else Authorization: Bearer", () => {
    expect(apiKeyOf({ "x-api-key": "api_test_a" })).toBe("api_test_a");
    expect(apiKeyOf({ authorization: "Bearer api_live_b" })).toBe("api_live_b");
    expect(apiKeyOf({ "x-api-key": "api_test_a", authorization: "Bearer api_live_b" })).toBe("api_test_a");
  });

  it("is undefined without a usable key", () => {
    expect(apiKeyOf({})).toBeUndefined();
    expect(apiKeyOf({ "x-api-key": "  " })).toBeUndefined();
    expect(apiKeyOf({ authorization: "Basic dXNlcjpwdw==" })).toBeUndefined();
  });

  it("recognises the same key by its digest only", () => {
    const digest = keyDigest("api_test_a");
    expect(sameKey(digest, "api_test_a")).toBe(true);
    expect(sameKey(digest, "api_test_b")).toBe(false);
  });
});
