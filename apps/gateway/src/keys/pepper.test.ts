import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { apiKeyEnvShape, DEVELOPMENT_PEPPER, resolveApiKeyPepper } from "./pepper.ts";

describe("API key pepper", () => {
  it("is required in production and defaults to the development pepper elsewhere", () => {
    expect(() => resolveApiKeyPepper({ NODE_ENV: "production" })).toThrow(ConfigError);
    expect(resolveApiKeyPepper({ NODE_ENV: "production", API_KEY_PEPPER: "x".repeat(32) })).toBe("x".repeat(32));
    expect(resolveApiKeyPepper({ NODE_ENV: "development" })).toBe(DEVELOPMENT_PEPPER);
    expect(resolveApiKeyPepper({})).toBe(DEVELOPMENT_PEPPER);
  });

  it("rejects a short pepper and treats an empty one as unset", () => {
    const schema = z.object(apiKeyEnvShape);
    expect(() => parseEnv(schema, { API_KEY_PEPPER: "short" })).toThrow(/API_KEY_PEPPER/);
    expect(parseEnv(schema, { API_KEY_PEPPER: "" }).API_KEY_PEPPER).toBeUndefined();
  });
});
