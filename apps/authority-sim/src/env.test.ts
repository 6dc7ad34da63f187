import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./env.ts";

describe("loadConfig", () => {
  it("has working defaults: port 4100, fast timing, documented credentials", () => {
    const config = loadConfig({});
    expect(config.port).toBe(4100);
    expect(config.host).toBe("127.0.0.1");
    expect(config.timing).toEqual({ mode: "fast", outcomeDelayMs: 2000, pollIntervalSeconds: 1 });
    expect(config.hangMs).toBe(60_000);
    expect(config.tax.refusedCredential).toBe("REFUSED");
    expect(config.tax.businessRules).toBe(true);
    expect(config.registry).toEqual({ presenterId: "66666666666", presenterAuthCode: "SIMAUTHCODE", refusedCompanyAuthCode: "000000" });
    expect(config.registryData).toEqual({ apiKey: "sim-registry-data-key", rateLimitPer5Min: 0, asOf: "2026-10-01" });
    expect(config.maxBodyBytes).toBe(10 * 1024 * 1024);
    expect(config.publicUrl).toBeUndefined();
  });

  it("realistic mode takes minutes, and each value can be overridden", () => {
    expect(loadConfig({ SIM_TIMING: "realistic" }).timing).toEqual({ mode: "realistic", outcomeDelayMs: 240_000, pollIntervalSeconds: 10 });
    expect(loadConfig({ SIM_TIMING: "realistic", SIM_POLL_INTERVAL_SECONDS: "30" }).timing.pollIntervalSeconds).toBe(30);
    expect(loadConfig({ SIM_OUTCOME_DELAY_MS: "0" }).timing.outcomeDelayMs).toBe(0);
  });

  it("reads every setting from the environment", () => {
    const config = loadConfig({
      SIM_PORT: "4200",
      SIM_HOST: "0.0.0.0",
      SIM_PUBLIC_URL: "http://authority-sim:4200/",
      SIM_HANG_MS: "5000",
      SIM_TAX_REFUSED_CREDENTIAL: "NOPE",
      SIM_REGISTRY_PRESENTER_ID: "12345678901",
      SIM_REGISTRY_PRESENTER_AUTH_CODE: "ABCDEFGHIJK",
      SIM_REGISTRY_REFUSED_COMPANY_AUTH_CODE: "ZZZZZZ",
      SIM_REGISTRY_DATA_API_KEY: "key",
      SIM_REGISTRY_DATA_RATE_LIMIT: "600",
      SIM_REGISTRY_DATA_AS_OF: "2027-01-01",
      SIM_MAX_SUBMISSIONS: "10",
      SIM_MAX_RECEIVED: "20",
      SIM_MAX_BODY_BYTES: "1000",
    });
    expect(config).toMatchObject({
      port: 4200,
      host: "0.0.0.0",
      publicUrl: "http://authority-sim:4200",
      hangMs: 5000,
      tax: { refusedCredential: "NOPE" },
      registry: { presenterId: "12345678901", presenterAuthCode: "ABCDEFGHIJK", refusedCompanyAuthCode: "ZZZZZZ" },
      registryData: { apiKey: "key", rateLimitPer5Min: 600, asOf: "2027-01-01" },
      maxSubmissions: 10,
      maxReceived: 20,
      maxBodyBytes: 1000,
    });
  });

  it("fails fast on a bad value, naming the variable", () => {
    expect(() => loadConfig({ SIM_PORT: "http" })).toThrow(ConfigError);
    expect(() => loadConfig({ SIM_TIMING: "slow" })).toThrow(/SIM_TIMING/);
    expect(() => loadConfig({ SIM_BUSINESS_RULES: "yes" })).toThrow(/SIM_BUSINESS_RULES/);
    expect(loadConfig({ SIM_BUSINESS_RULES: "off" }).tax.businessRules).toBe(false);
    expect(() => loadConfig({ SIM_REGISTRY_REFUSED_COMPANY_AUTH_CODE: "abc" })).toThrow(/SIM_REGISTRY_REFUSED_COMPANY_AUTH_CODE/);
  });
});
