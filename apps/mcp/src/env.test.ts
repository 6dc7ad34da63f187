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

describe("loadStdioConfig", () => {
  it("needs DORMANT_API_KEY, and never echoes a value", () => {
    expect(() => loadStdioConfig({})).toThrow(ConfigError);
    expect(loadStdioConfig({ DORMANT_API_KEY: "api_test_k" })).toMatchObject({
      DORMANT_API_KEY: "api_test_k",
      DORMANT_API_URL: "http://localhost:3000/api/v1",
    });
  });
});
