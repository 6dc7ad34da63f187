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
  DASHBOARD_DATABASE_POOL_MAX: envPositiveInt(5),
});
export type DashboardEnv = z.infer<typeof dashboardEnvSchema>;

export interface DashboardConfig extends DashboardEnv {
  publicUrl: string;
  secureCookies: boolean;
}

export function loadDashboardConfig(source: Record<string, string | undefined> = process.env): DashboardConfig {
  const env = parseEnv(dashboardEnvSchema, source);
  const publicUrl = (env.DASHBOARD_PUBLIC_URL ?? `http://localhost:${env.DASHBOARD_PORT}`).replace(/\/+$/, "");
  const secureCookies = env.DASHBOARD_SECURE_COOKIES ?? (publicUrl.startsWith("https:") || env.NODE_ENV === "production");
  return { ...env, publicUrl, secureCookies };
}
