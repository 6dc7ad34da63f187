import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "./env.ts";

describe("gateway configuration", () => {
  it("runs on defaults outside production", () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_KEY_PREFIX: "dormant:",
      AMQP_URL: "amqp://guest:guest@127.0.0.1:5672",
      BODY_LIMIT_BYTES: 32_768,
      RATE_LIMIT_PER_MINUTE: 60,
      RATE_LIMIT_PER_DAY: 1000,
      TRUST_PROXY_HOPS: 0,
    });
    expect(config.GATEWAY_DATABASE_URL).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:5432\//);
    expect(config.sealingKey.key).toHaveLength(32);
  });

  it("bounds the key-lookup line at 16 and trusts no MCP client address unless a secret of 32+ characters is set", () => {
    const config = loadGatewayConfig({});
    expect(config.AUTH_LOOKUP_QUEUE_LIMIT).toBe(16);
    expect(config.MCP_CLIENT_ADDRESS_SECRET).toBeUndefined();
    expect(loadGatewayConfig({ AUTH_LOOKUP_QUEUE_LIMIT: "4" }).AUTH_LOOKUP_QUEUE_LIMIT).toBe(4);
    expect(() => loadGatewayConfig({ MCP_CLIENT_ADDRESS_SECRET: "short" })).toThrow(/MCP_CLIENT_ADDRESS_SECRET/);
  });

  it("coerces numbers from text", () => {
    const config = loadGatewayConfig({ PORT: "8080", FILING_RPC_SUBMIT_TIMEOUT_MS: "2500", RATE_LIMIT_PER_MINUTE: "600" });
    expect(config).toMatchObject({ PORT: 8080, FILING_RPC_SUBMIT_TIMEOUT_MS: 2500, RATE_LIMIT_PER_MINUTE: 600 });
  });

  it("lists every bad variable at once, without echoing values", () => {
    try {
      loadGatewayConfig({ PORT: "http", REDIS_URL: "not a url", BODY_LIMIT_BYTES: "12" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join("\n");
      expect(problems).toContain("PORT");
      expect(problems).toContain("REDIS_URL");
      expect(problems).toContain("BODY_LIMIT_BYTES");
      expect(problems).not.toContain("not a url");
    }
  });

  it("requires the secrets in production", () => {
    expect(() => loadGatewayConfig({ NODE_ENV: "production", API_KEY_PEPPER: "p".repeat(32) })).toThrow(/CREDENTIALS_SEALING_KEY/);
    expect(() => loadGatewayConfig({ NODE_ENV: "production", CREDENTIALS_SEALING_KEY: Buffer.alloc(32, 7).toString("base64") })).toThrow(
      /API_KEY_PEPPER/,
    );
    const config = loadGatewayConfig({
      NODE_ENV: "production",
      API_KEY_PEPPER: "p".repeat(32),
      CREDENTIALS_SEALING_KEY: Buffer.alloc(32, 7).toString("base64"),
      CREDENTIALS_SEALING_KEY_ID: "2025-01",
    });
    expect(config.sealingKey.id).toBe("2025-01");
  });

  it("refuses a sealing key of the wrong size", () => {
    expect(() => loadGatewayConfig({ CREDENTIALS_SEALING_KEY: Buffer.alloc(16).toString("base64") })).toThrow(/32 bytes/);
  });
});
