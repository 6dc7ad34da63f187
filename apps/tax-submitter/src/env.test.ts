import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { loadTaxSubmitterConfig } from "./env.ts";

const key = Buffer.alloc(32, 9).toString("base64");

function problems(source: Record<string, string>): string {
  try {
    loadTaxSubmitterConfig(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join("\n");
  }
  throw new Error("expected a ConfigError");
}

describe("tax submitter configuration", () => {
  it("runs on defaults outside production, against the local simulator, production's timing at a shorter scale", () => {
    const config = loadTaxSubmitterConfig({});
    expect(config).toMatchObject({
      amqpUrl: "amqp://guest:guest@127.0.0.1:5672",
      redisUrl: "redis://127.0.0.1:6379",
      redisKeyPrefix: "dormant:",
      ops: { port: 4201, host: "0.0.0.0" },
      tax: {
        submissionUrl: "http://127.0.0.1:4100/tax/submission",
        pollUrl: "http://127.0.0.1:4100/tax/poll",
        gatewayTest: true,
        vendorId: "0000",
        productName: "Dormant Filing Platform",
        productVersion: "1.0.0",
        companyType: 0,
      },
      breaker: { timeoutMs: 8000, errorThresholdPercentage: 50, volumeThreshold: 5, rollingWindowMs: 10_000, resetTimeoutMs: 30_000 },
      limits: { maxConcurrent: 64, maxPerSecond: 100 },
      // Production's shape at a shorter scale: polled for minutes, then checked late.
      pollGiveUpAfterSeconds: 300,
      lateCheck: { seconds: 3600, intervalSeconds: 30 },
      pollPrefetch: 16,
      submitPrefetch: 8,
      submitDedupeTtlSeconds: 86_400,
      completionTtlSeconds: 604_800,
    });
    expect(config.sealingKeys.map((k) => k.id)).toEqual(["dev"]);
  });

  it("reads every setting from text", () => {
    const config = loadTaxSubmitterConfig({
      TAX_BASE_URL: "https://transaction-engine.tax.service.gov.uk/",
      TAX_GATEWAY_TEST: "false",
      TAX_VENDOR_ID: "4321",
      TAX_PRODUCT_VERSION: "2.1",
      AUTHORITY_TIMEOUT_MS: "2500",
      BREAKER_RESET_TIMEOUT_MS: "5000",
      POLL_GIVE_UP_AFTER_SECONDS: "600",
      TAX_LATE_CHECK_SECONDS: "86400",
      TAX_LATE_CHECK_INTERVAL_SECONDS: "600",
      POLL_PREFETCH: "64",
      OPS_PORT: "9201",
    });
    expect(config.tax).toMatchObject({
      submissionUrl: "https://transaction-engine.tax.service.gov.uk/submission",
      pollUrl: "https://transaction-engine.tax.service.gov.uk/poll",
      gatewayTest: false,
      vendorId: "4321",
      productVersion: "2.1",
    });
    expect(config).toMatchObject({
      breaker: { timeoutMs: 2500, resetTimeoutMs: 5000 },
      pollGiveUpAfterSeconds: 600,
      lateCheck: { seconds: 86_400, intervalSeconds: 600 },
      pollPrefetch: 64,
      ops: { port: 9201 },
    });
  });

  it("production: requires the authority URL, the vendor ID and a sealing key; gives up after hours, checks for days; live gateway", () => {
    const text = problems({ NODE_ENV: "production" });
    expect(text).toContain("TAX_BASE_URL: required in production");
    expect(text).toContain("TAX_VENDOR_ID: required in production");
    expect(text).toContain("CREDENTIALS_SEALING_KEY: required in production");
    const config = loadTaxSubmitterConfig({
      NODE_ENV: "production",
      TAX_BASE_URL: "https://transaction-engine.tax.service.gov.uk",
      TAX_VENDOR_ID: "4321",
      CREDENTIALS_SEALING_KEY: key,
    });
    expect(config.tax.gatewayTest).toBe(false);
    expect(config.pollGiveUpAfterSeconds).toBe(4 * 60 * 60);
    // A part given up is asked about again every hour for 3 days (a late acceptance is not missed).
    expect(config.lateCheck).toEqual({ seconds: 3 * 24 * 60 * 60, intervalSeconds: 60 * 60 });
    expect(config.sealingKeys.map((k) => k.id)).toEqual(["k1"]);
  });

  it("lists bad values by variable, without echoing them", () => {
    const text = problems({
      TAX_VENDOR_ID: "12345",
      TAX_BASE_URL: "not a url",
      AUTHORITY_TIMEOUT_MS: "-1",
      BREAKER_ERROR_THRESHOLD_PERCENTAGE: "150",
    });
    for (const name of ["TAX_VENDOR_ID", "TAX_BASE_URL", "AUTHORITY_TIMEOUT_MS", "BREAKER_ERROR_THRESHOLD_PERCENTAGE"])
      expect(text).toContain(name);
    expect(text).not.toContain("not a url");
  });
});
