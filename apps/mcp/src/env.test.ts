import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { loadMcpConfig, loadStdioConfig } from "./env.ts";

describe("loadMcpConfig", () => {
  it("defaults to port 3100 on loopback, calling the local gateway", () => {
    expect(loadMcpConfig({})).toMatchObject({ MCP_PORT: 3100, MCP_HOST: "127.0.0.1", DORMANT_API_URL: "http://localhost:3000/api/v1" });
  });

  it("follows the gateway's PORT unless DORMANT_API_URL is given", () => {
    expect(loadMcpConfig({ PORT: "3900" }).DORMANT_API_URL).toBe("http://localhost:3900/api/v1");
    expect(loadMcpConfig({ PORT: "3900", DORMANT_API_URL: "https://api.example.com" }).DORMANT_API_URL).toBe("https://api.example.com");
  });
});

describe("the HTTP server's proxy and session settings", () => {
  it("answers loopback names only, no browser origin, and 10 sessions per key by default", () => {
    expect(loadMcpConfig({})).toMatchObject({
      MCP_ALLOWED_HOSTS: ["localhost", "127.0.0.1", "[::1]"],
      MCP_ALLOWED_ORIGINS: [],
      MCP_MAX_SESSIONS_PER_KEY: 10,
      MCP_TRUST_PROXY_HOPS: 0,
    });
    expect(loadMcpConfig({}).MCP_CLIENT_ADDRESS_SECRET).toBeUndefined();
  });

  it("reads lists separated by commas, and refuses a short client-address secret", () => {
    const config = loadMcpConfig({ MCP_ALLOWED_HOSTS: " mcp.example.com, localhost ,", MCP_ALLOWED_ORIGINS: "https://a.example" });
    expect(config.MCP_ALLOWED_HOSTS).toEqual(["mcp.example.com", "localhost"]);
    expect(config.MCP_ALLOWED_ORIGINS).toEqual(["https://a.example"]);
    expect(() => loadMcpConfig({ MCP_CLIENT_ADDRESS_SECRET: "short" })).toThrow(/MCP_CLIENT_ADDRESS_SECRET/);
  });
});

describe("loadStdioConfig", () => {
  it("needs DORMANT_API_KEY, and never echoes a value", () => {
    expect(() => loadStdioConfig({})).toThrow(ConfigError);
    expect(loadStdioConfig({ DORMANT_API_KEY: "api_test_k" })).toMatchObject({
      DORMANT_API_KEY: "api_test_k",
      DORMANT_API_URL: "http://localhost:3000/api/v1",
    });
  });
});
