import { randomBytes } from "node:crypto";
import { DEVELOPMENT_SEALING_KEY } from "@dormant/contracts";
import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { loadFilingConfig } from "./env.ts";

describe("filing configuration", () => {
  it("runs on a fresh machine with defaults only", () => {
    const config = loadFilingConfig({});
    expect(config.FILING_DATABASE_URL).toBe("postgresql://postgres@127.0.0.1:5432/dormant_filing");
    expect(config.AMQP_URL).toBe("amqp://guest:guest@127.0.0.1:5672");
    expect(config.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(config.REGISTRY_DATA_URL).toBe("http://127.0.0.1:4100/registry-data");
    expect(config.REGISTRY_DATA_API_KEY).toBe("sim-registry-data-key");
    expect(config.OPS_PORT).toBe(4301);
    expect(config.REGISTRY_CACHE_TTL_SECONDS).toBe(600);
    expect(config.SWEEPER_PENDING_AFTER_SECONDS).toBe(60);
    expect(config.sealingKeys.map((k) => k.id)).toEqual([DEVELOPMENT_SEALING_KEY.id]);
  });

  it("coerces numbers and takes real sealing keys, the current one first", () => {
    const key = randomBytes(32).toString("base64");
    const retired = randomBytes(32).toString("base64");
    const config = loadFilingConfig({
      OPS_PORT: "0",
      OUTBOX_RELAY_INTERVAL_MS: "50",
      CREDENTIALS_SEALING_KEY: key,
      CREDENTIALS_SEALING_KEY_ID: "k9",
      CREDENTIALS_SEALING_KEYS_RETIRED: `k8:${retired}`,
    });
    expect(config.OPS_PORT).toBe(0);
    expect(config.OUTBOX_RELAY_INTERVAL_MS).toBe(50);
    expect(config.sealingKeys).toEqual([
      { id: "k9", key: Buffer.from(key, "base64") },
      { id: "k8", key: Buffer.from(retired, "base64") },
    ]);
  });

  it("lists every bad variable by name, never its value", () => {
    const error = (() => {
      try {
        loadFilingConfig({ FILING_DATABASE_URL: "not a url", SWEEPER_INTERVAL_MS: "-1", REDIS_URL: "secret-looking-value" });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    expect(problems).toMatch(/FILING_DATABASE_URL/);
    expect(problems).toMatch(/SWEEPER_INTERVAL_MS/);
    expect(problems).toMatch(/REDIS_URL/);
    expect(problems).not.toMatch(/secret-looking-value/);
  });

  it("refuses a malformed sealing key, and production without one", () => {
    expect(() => loadFilingConfig({ CREDENTIALS_SEALING_KEY: randomBytes(16).toString("base64") })).toThrow(/CREDENTIALS_SEALING_KEY/);
    expect(() => loadFilingConfig({ NODE_ENV: "production" })).toThrow(/required in production/);
  });
});
