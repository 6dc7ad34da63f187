import { loadSimConfig } from "@dormant/authority-sim/testing";
import { ConfigError } from "@dormant/service-kit";
import { describe, expect, it } from "vitest";
import {
  DEVELOPMENT_PAYMENT_PROVIDER_API_KEY,
  DEVELOPMENT_PAYMENT_PROVIDER_URL,
  DEVELOPMENT_WEBHOOK_SECRET,
  loadBillingConfig,
} from "./env.ts";

describe("billing configuration", () => {
  it("runs on defaults outside production", () => {
    expect(loadBillingConfig({})).toMatchObject({
      NODE_ENV: "development",
      BILLING_DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/dormant_billing",
      AMQP_URL: "amqp://guest:guest@127.0.0.1:5672",
      BILLING_PORT: 4400,
      BILLING_HOST: "0.0.0.0",
      PAYMENT_WEBHOOK_TOLERANCE_SECONDS: 300,
      BILLING_EVENTS_PREFETCH: 10,
      BILLING_RPC_PREFETCH: 20,
      SHUTDOWN_TIMEOUT_MS: 20_000,
      webhookSecret: DEVELOPMENT_WEBHOOK_SECRET,
    });
  });

  it("coerces numbers from text and takes the configured secret", () => {
    const secret = "s".repeat(40);
    expect(
      loadBillingConfig({
        BILLING_PORT: "0",
        PAYMENT_WEBHOOK_TOLERANCE_SECONDS: "60",
        BILLING_EVENTS_PREFETCH: "3",
        PAYMENT_WEBHOOK_SECRET: secret,
      }),
    ).toMatchObject({ BILLING_PORT: 0, PAYMENT_WEBHOOK_TOLERANCE_SECONDS: 60, BILLING_EVENTS_PREFETCH: 3, webhookSecret: secret });
  });

  it("lists every bad variable at once, without echoing values", () => {
    try {
      loadBillingConfig({ BILLING_PORT: "http", BILLING_DATABASE_URL: "not a url", PAYMENT_WEBHOOK_SECRET: "short-secret-value" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join("\n");
      expect(problems).toContain("BILLING_PORT");
      expect(problems).toContain("BILLING_DATABASE_URL");
      expect(problems).toContain("PAYMENT_WEBHOOK_SECRET");
      expect(problems).not.toContain("not a url");
      expect(problems).not.toContain("short-secret-value");
    }
  });

  it("requires the webhook secret in production (an empty value counts as unset)", () => {
    expect(() => loadBillingConfig({ NODE_ENV: "production" })).toThrow(/PAYMENT_WEBHOOK_SECRET: required in production/);
    expect(() => loadBillingConfig({ NODE_ENV: "production", PAYMENT_WEBHOOK_SECRET: "" })).toThrow(/required in production/);
    expect(loadBillingConfig({ NODE_ENV: "production", PAYMENT_WEBHOOK_SECRET: "p".repeat(32) }).webhookSecret).toBe("p".repeat(32));
  });

  it("sends checkouts to the local stand-in of the payment provider by default, outside production only", () => {
    expect(loadBillingConfig({}).paymentProvider).toEqual({
      url: DEVELOPMENT_PAYMENT_PROVIDER_URL,
      apiKey: DEVELOPMENT_PAYMENT_PROVIDER_API_KEY,
      timeoutMs: 3000,
    });
    const production = { NODE_ENV: "production", PAYMENT_WEBHOOK_SECRET: "p".repeat(32) };
    expect(loadBillingConfig(production).paymentProvider).toBeNull();
    expect(
      loadBillingConfig({
        ...production,
        PAYMENT_PROVIDER_URL: "https://pay.example.com/v1/",
        PAYMENT_PROVIDER_API_KEY: "k".repeat(20),
        PAYMENT_PROVIDER_TIMEOUT_MS: "2000",
      }).paymentProvider,
    ).toEqual({ url: "https://pay.example.com/v1", apiKey: "k".repeat(20), timeoutMs: 2000 });
    expect(() => loadBillingConfig({ ...production, PAYMENT_PROVIDER_URL: "https://pay.example.com/v1" })).toThrow(/set both or neither/);
    expect(() => loadBillingConfig({ PAYMENT_PROVIDER_TIMEOUT_MS: "9000" })).toThrow(/PAYMENT_PROVIDER_TIMEOUT_MS/);
  });

  it("under npm start (one shared environment) billing and the simulator's stand-in find each other with no setting", () => {
    for (const shared of [{}, { BILLING_PORT: "4555", PAYMENT_WEBHOOK_SECRET: "w".repeat(40), PAYMENT_PROVIDER_API_KEY: "k".repeat(24) }]) {
      const billing = loadBillingConfig(shared);
      const sim = loadSimConfig(shared);
      expect(billing.paymentProvider?.url).toBe(`http://127.0.0.1:${sim.port}/payment-provider/v1`);
      expect(sim.paymentProvider).toMatchObject({
        apiKey: billing.paymentProvider?.apiKey,
        webhookSecret: billing.webhookSecret,
        webhookUrl: `http://127.0.0.1:${billing.BILLING_PORT}/webhooks/payments`,
      });
    }
  });
});
