import { baseEnvSchema, envBoolean, envPositiveInt, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { amqpEnvShape } from "./bus/settings.ts";
import { dashboardDatabaseEnvShape } from "./db/settings.ts";

/** Every setting of the dashboard, read once at boot (README "Configuration" lists them). */
export const dashboardEnvSchema = baseEnvSchema.extend({
  ...dashboardDatabaseEnvShape,
  ...amqpEnvShape,
  REDIS_URL: z.url().default("redis://127.0.0.1:6379"),
  /** The pages, /assets and the ops endpoints (/healthz, /readyz, /metrics). */
  DASHBOARD_PORT: z.coerce.number().int().min(0).max(65_535).default(3200),
  DASHBOARD_HOST: z.string().min(1).default("0.0.0.0"),
  /** The address users open (links in invitations; https makes the session cookie Secure). */
  DASHBOARD_PUBLIC_URL: z.url().optional(),
  /** Trust X-Forwarded-For from this many proxies in front (0: the client address is the socket's). */
  DASHBOARD_TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Force the Secure cookie flag on or off (default: on when the public URL is https or NODE_ENV=production). */
  DASHBOARD_SECURE_COOKIES: envBoolean.optional(),
  DASHBOARD_REDIS_PREFIX: z.string().min(1).default("dashboard:"),
  /** A session unused this long ends (default 30 min); any session ends this long after sign-in (default 12 h). */
  DASHBOARD_SESSION_IDLE_SECONDS: envPositiveInt(30 * 60),
  DASHBOARD_SESSION_ABSOLUTE_SECONDS: envPositiveInt(12 * 60 * 60),
  /** Sign-in attempts per window: per email and per client address. */
  DASHBOARD_SIGNIN_WINDOW_SECONDS: envPositiveInt(15 * 60),
  DASHBOARD_SIGNIN_MAX_PER_EMAIL: envPositiveInt(5),
  DASHBOARD_SIGNIN_MAX_PER_ADDRESS: envPositiveInt(20),
  /** New accounts (sign-ups) per client address per window (default 10 an hour). */
  DASHBOARD_SIGNUP_WINDOW_SECONDS: envPositiveInt(60 * 60),
  DASHBOARD_SIGNUP_MAX_PER_ADDRESS: envPositiveInt(10),
  /** The webhook forms per account: every change, and "Send test" on its own, per window. */
  DASHBOARD_WEBHOOK_WINDOW_SECONDS: envPositiveInt(60),
  DASHBOARD_WEBHOOK_MAX_ACTIONS: envPositiveInt(30),
  DASHBOARD_WEBHOOK_MAX_TESTS: envPositiveInt(10),
  DASHBOARD_DATABASE_POOL_MAX: envPositiveInt(5),
  /**
   * The payment provider's checkout origin(s), comma-separated, that "Top up" redirects to (the
   * CSP's form-action allows them). Default outside production: the simulator's stand-in.
   */
  DASHBOARD_PAYMENT_CHECKOUT_ORIGINS: z.string().optional(),
});
export type DashboardEnv = z.infer<typeof dashboardEnvSchema>;

export interface DashboardConfig extends DashboardEnv {
  publicUrl: string;
  secureCookies: boolean;
  /** DASHBOARD_PAYMENT_CHECKOUT_ORIGINS as origins ("http://127.0.0.1:4100"). */
  checkoutOrigins: string[];
}

/** The simulator's payment-provider stand-in (apps/authority-sim), where billing's development default points. */
export const DEVELOPMENT_CHECKOUT_ORIGINS = "http://127.0.0.1:4100,http://localhost:4100";

/** Comma-separated URLs to their origins; anything that is not an http(s) URL is a configuration error. */
export function parseCheckoutOrigins(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .map((item) => {
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw new Error(`DASHBOARD_PAYMENT_CHECKOUT_ORIGINS: ${JSON.stringify(item)} is not a URL`);
      }
      if (url.protocol !== "https:" && url.protocol !== "http:")
        throw new Error(`DASHBOARD_PAYMENT_CHECKOUT_ORIGINS: ${JSON.stringify(item)} is not http(s)`);
      return url.origin;
    });
}

export function loadDashboardConfig(source: Record<string, string | undefined> = process.env): DashboardConfig {
  const env = parseEnv(dashboardEnvSchema, source);
  const publicUrl = (env.DASHBOARD_PUBLIC_URL ?? `http://localhost:${env.DASHBOARD_PORT}`).replace(/\/+$/, "");
  const secureCookies = env.DASHBOARD_SECURE_COOKIES ?? (publicUrl.startsWith("https:") || env.NODE_ENV === "production");
  const checkoutOrigins = parseCheckoutOrigins(
    env.DASHBOARD_PAYMENT_CHECKOUT_ORIGINS ?? (env.NODE_ENV === "production" ? "" : DEVELOPMENT_CHECKOUT_ORIGINS),
  );
  return { ...env, publicUrl, secureCookies, checkoutOrigins };
}
