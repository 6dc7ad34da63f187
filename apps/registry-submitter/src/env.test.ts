import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { loadRegistrySubmitterConfig } from "./env.ts";

function problems(source: Record<string, string>): string {
  try {
    loadRegistrySubmitterConfig(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join("\n");
  }
  throw new Error("expected a ConfigError");
}

describe("registry submitter configuration", () => {
  it("runs on defaults outside production: the local simulator, its presenter, fast timing", () => {
    const config = loadRegistrySubmitterConfig({});
    expect(config).toMatchObject({
      amqpUrl: "amqp://guest:guest@127.0.0.1:5672",
      redisUrl: "redis://127.0.0.1:6379",
      redisKeyPrefix: "dormant:",
      ops: { port: 4202, host: "0.0.0.0" },
      registry: {
        gatewayUrl: "http://127.0.0.1:4100/registry/v1-0/xmlgw/Gateway",
        gatewayTest: true,
        presenter: { presenterId: "66666666666", presenterAuthCode: "SIMAUTHCODE" },
        packageReference: "0012",
        pollIntervalSeconds: 1,
        pollBackoff: { initialSeconds: 1, factor: 2, maxSeconds: 2 },
      },
      breaker: { timeoutMs: 8000, errorThresholdPercentage: 50, volumeThreshold: 5, resetTimeoutMs: 30_000 },
      // A horizon of minutes (production's 14 days at a shorter scale), not seconds.
      pollGiveUpAfterSeconds: 300,
      pollPrefetch: 16,
      submitPrefetch: 8,
    });
    expect(config.sealingKeys.map((k) => k.id)).toEqual(["dev"]);
  });

  it("production: requires the gateway URL, presenter, package reference and sealing key; polls after a minute, backing off to every 15 minutes, for 14 days", () => {
    const text = problems({ NODE_ENV: "production" });
    for (const name of [
      "REGISTRY_GATEWAY_URL",
      "REGISTRY_PRESENTER_ID",
      "REGISTRY_PRESENTER_AUTH_CODE",
      "REGISTRY_PACKAGE_REFERENCE",
      "CREDENTIALS_SEALING_KEY",
    ]) {
      expect(text).toContain(`${name}: required in production`);
    }
    const config = loadRegistrySubmitterConfig({
      NODE_ENV: "production",
      REGISTRY_GATEWAY_URL: "https://xmlgw.companieshouse.gov.uk",
      REGISTRY_PRESENTER_ID: "12345678901",
      REGISTRY_PRESENTER_AUTH_CODE: "presenter-secret",
      REGISTRY_PACKAGE_REFERENCE: "4242",
      CREDENTIALS_SEALING_KEY: Buffer.alloc(32, 3).toString("base64"),
    });
    expect(config.registry).toMatchObject({
      gatewayUrl: "https://xmlgw.companieshouse.gov.uk/v1-0/xmlgw/Gateway",
      gatewayTest: false,
      pollIntervalSeconds: 60,
      pollBackoff: { initialSeconds: 60, factor: 2, maxSeconds: 900 },
    });
    expect(config.pollGiveUpAfterSeconds).toBe(14 * 24 * 60 * 60);
  });

  it("the polling horizon: REGISTRY_POLL_HORIZON_SECONDS, else the shared POLL_GIVE_UP_AFTER_SECONDS (backward compatible); the backoff's cap", () => {
    expect(loadRegistrySubmitterConfig({ POLL_GIVE_UP_AFTER_SECONDS: "172800" }).pollGiveUpAfterSeconds).toBe(172_800);
    expect(
      loadRegistrySubmitterConfig({ REGISTRY_POLL_HORIZON_SECONDS: "604800", POLL_GIVE_UP_AFTER_SECONDS: "172800" }).pollGiveUpAfterSeconds,
    ).toBe(604_800);
    const config = loadRegistrySubmitterConfig({ REGISTRY_POLL_INTERVAL_SECONDS: "30", REGISTRY_POLL_MAX_INTERVAL_SECONDS: "3600" });
    expect(config.registry).toMatchObject({ pollIntervalSeconds: 30, pollBackoff: { initialSeconds: 30, factor: 2, maxSeconds: 3600 } });
    const text = problems({ REGISTRY_POLL_HORIZON_SECONDS: "0", REGISTRY_POLL_MAX_INTERVAL_SECONDS: "soon" });
    for (const name of ["REGISTRY_POLL_HORIZON_SECONDS", "REGISTRY_POLL_MAX_INTERVAL_SECONDS"]) expect(text).toContain(name);
  });

  it("lists bad values by variable, without echoing them", () => {
    const text = problems({ REGISTRY_GATEWAY_URL: "nope", REGISTRY_POLL_INTERVAL_SECONDS: "0", POLL_PREFETCH: "many" });
    for (const name of ["REGISTRY_GATEWAY_URL", "REGISTRY_POLL_INTERVAL_SECONDS", "POLL_PREFETCH"]) expect(text).toContain(name);
    expect(text).not.toContain("nope");
  });
});
