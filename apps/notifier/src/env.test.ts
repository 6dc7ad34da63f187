import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_SCHEDULE_SECONDS, loadNotifierConfig } from "./env.ts";

const KEY = Buffer.alloc(32, 7).toString("base64");

describe("notifier configuration", () => {
  it("defaults: private URLs allowed and http accepted outside production, 10 s time-out, 3-day horizon, development sealing key", () => {
    const config = loadNotifierConfig({ NODE_ENV: "development" });
    expect(config).toMatchObject({
      allowPrivateUrls: true,
      httpsOnly: false,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_RETRY_HORIZON_SECONDS: 259_200,
      WEBHOOK_DISABLE_AFTER_SECONDS: 259_200,
      NOTIFIER_DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/dormant_notifier",
    });
    expect(config.retryScheduleSeconds).toEqual(DEFAULT_RETRY_SCHEDULE_SECONDS);
    expect(config.sealingKeys[0]?.id).toBe("dev");
  });

  it("production: https only, private URLs refused, a sealing key required, horizons of at least 3 days", () => {
    expect(() => loadNotifierConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
    const config = loadNotifierConfig({ NODE_ENV: "production", NOTIFIER_SEALING_KEY: KEY, NOTIFIER_SEALING_KEY_ID: "k9" });
    expect(config).toMatchObject({ allowPrivateUrls: false, httpsOnly: true });
    expect(config.sealingKeys.map((key) => key.id)).toEqual(["k9"]);
    expect(() => loadNotifierConfig({ NODE_ENV: "production", NOTIFIER_SEALING_KEY: KEY, WEBHOOK_RETRY_HORIZON_SECONDS: "60" })).toThrow(
      /WEBHOOK_RETRY_HORIZON_SECONDS/,
    );
  });

  it("reads a retry schedule and retired sealing keys, and names bad values without echoing them", () => {
    const config = loadNotifierConfig({
      NODE_ENV: "test",
      WEBHOOK_RETRY_SCHEDULE_SECONDS: "1, 2,3",
      WEBHOOK_ALLOW_PRIVATE_URLS: "false",
      NOTIFIER_SEALING_KEYS_RETIRED: `old:${KEY}`,
    });
    expect(config.retryScheduleSeconds).toEqual([1, 2, 3]);
    expect(config.allowPrivateUrls).toBe(false);
    expect(config.sealingKeys.map((key) => key.id)).toEqual(["dev", "old"]);
    expect(() => loadNotifierConfig({ WEBHOOK_RETRY_SCHEDULE_SECONDS: "soon" })).toThrow(/WEBHOOK_RETRY_SCHEDULE_SECONDS/);
    const error = (() => {
      try {
        loadNotifierConfig({ NOTIFIER_SEALING_KEY: "c2hvcnQ=" });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toContain("NOTIFIER_SEALING_KEY");
    expect(error?.message).not.toContain("c2hvcnQ=");
  });
});
