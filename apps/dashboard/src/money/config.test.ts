import { describe, expect, it } from "vitest";
import { loadDashboardConfig, parseCheckoutOrigins } from "../env.ts";
import { contentSecurityPolicy, CONTENT_SECURITY_POLICY } from "../web/security-headers.ts";

describe("the payment provider's checkout origins (configuration)", () => {
  it("defaults to the simulator's stand-in outside production and to none in production", () => {
    expect(loadDashboardConfig({}).checkoutOrigins).toEqual(["http://127.0.0.1:4100", "http://localhost:4100"]);
    expect(loadDashboardConfig({ NODE_ENV: "production" }).checkoutOrigins).toEqual([]);
    expect(
      loadDashboardConfig({ DASHBOARD_PAYMENT_CHECKOUT_ORIGINS: "https://checkout.pay.example/c/, https://b.example:8443" })
        .checkoutOrigins,
    ).toEqual(["https://checkout.pay.example", "https://b.example:8443"]);
  });

  it("refuses what is not an http(s) URL", () => {
    expect(() => parseCheckoutOrigins("checkout.example")).toThrow(/not a URL/);
    expect(() => parseCheckoutOrigins("javascript:alert(1)")).toThrow(/not http/);
  });

  it("adds the origins to form-action only", () => {
    expect(contentSecurityPolicy([])).toBe(CONTENT_SECURITY_POLICY);
    const policy = contentSecurityPolicy(["https://checkout.pay.example"]);
    expect(policy).toContain("form-action 'self' https://checkout.pay.example;");
    expect(policy.replace(" https://checkout.pay.example", "")).toBe(CONTENT_SECURITY_POLICY);
  });
});
