import { baseEnvSchema, ConfigError, envPositiveInt, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { amqpEnvShape } from "./bus/settings.ts";
import { billingDatabaseEnvShape } from "./db/settings.ts";

/** Used outside production only, so that a fresh clone works without configuration. */
export const DEVELOPMENT_WEBHOOK_SECRET = "dormant-development-payment-webhook-secret";
/**
 * Outside production, without configuration, top-ups go to the local stand-in of the payment
 * provider that the authority simulator serves (apps/authority-sim/src/payment-provider, never in
 * production) with this API key; the simulator defaults to the same key.
 */
export const DEVELOPMENT_PAYMENT_PROVIDER_URL = "http://127.0.0.1:4100/payment-provider/v1";
export const DEVELOPMENT_PAYMENT_PROVIDER_API_KEY = "dormant-development-payment-provider-key";

const emptyIsUnset = (value: unknown) => (value === "" ? undefined : value);

/** Every setting of the billing service, read once at boot (README "Configuration" lists them). */
export const billingEnvSchema = baseEnvSchema.extend({
  ...billingDatabaseEnvShape,
  ...amqpEnvShape,
  /** The webhook and ops endpoints (/webhooks/payments, /healthz, /readyz, /metrics). */
  BILLING_PORT: z.coerce.number().int().min(0).max(65_535).default(4400),
  BILLING_HOST: z.string().min(1).default("0.0.0.0"),
  /** The secret the payment provider signs webhooks with; required in production. Empty = unset. */
  PAYMENT_WEBHOOK_SECRET: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  /** The payment provider's API base URL (checkout sessions are created under it). Empty = unset. */
  PAYMENT_PROVIDER_URL: z.preprocess(emptyIsUnset, z.url().optional()),
  /** The key billing authenticates to the provider with (a secret: never logged). Empty = unset. */
  PAYMENT_PROVIDER_API_KEY: z.preprocess(emptyIsUnset, z.string().min(16, "must be at least 16 characters").optional()),
  /** How long billing waits for the provider to create a checkout (below billing.create_checkout's 5 s). */
  PAYMENT_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(4500).default(3000),
  /** How far a webhook's signed timestamp may be from now, in seconds. */
  PAYMENT_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** Unacknowledged deliveries per consumer: filing events, and RPC requests (holds, balances). */
  BILLING_EVENTS_PREFETCH: envPositiveInt(10),
  BILLING_RPC_PREFETCH: envPositiveInt(20),
});
export type BillingEnv = z.infer<typeof billingEnvSchema>;

export interface PaymentProviderConfig {
  /** Base URL without a trailing slash. */
  url: string;
  apiKey: string;
  timeoutMs: number;
}

export interface BillingConfig extends BillingEnv {
  webhookSecret: string;
  /**
   * Where checkouts are created; null in production without PAYMENT_PROVIDER_URL and
   * PAYMENT_PROVIDER_API_KEY (billing runs, and billing.create_checkout answers that top-ups are
   * not available). Outside production: the local stand-in by default.
   */
  paymentProvider: PaymentProviderConfig | null;
}

function paymentProvider(env: BillingEnv): PaymentProviderConfig | null {
  const production = env.NODE_ENV === "production";
  const url = env.PAYMENT_PROVIDER_URL ?? (production ? undefined : DEVELOPMENT_PAYMENT_PROVIDER_URL);
  const apiKey = env.PAYMENT_PROVIDER_API_KEY ?? (production ? undefined : DEVELOPMENT_PAYMENT_PROVIDER_API_KEY);
  if (!url || !apiKey) return null;
  return { url: url.replace(/\/+$/, ""), apiKey, timeoutMs: env.PAYMENT_PROVIDER_TIMEOUT_MS };
}

/** Parses and resolves the configuration; throws ConfigError listing every problem. */
export function loadBillingConfig(source: Record<string, string | undefined> = process.env): BillingConfig {
  const env = parseEnv(billingEnvSchema, source);
  if (!env.PAYMENT_WEBHOOK_SECRET && env.NODE_ENV === "production")
    throw new ConfigError(["PAYMENT_WEBHOOK_SECRET: required in production"]);
  if (Boolean(env.PAYMENT_PROVIDER_URL) !== Boolean(env.PAYMENT_PROVIDER_API_KEY) && env.NODE_ENV === "production")
    throw new ConfigError(["PAYMENT_PROVIDER_URL and PAYMENT_PROVIDER_API_KEY: set both or neither"]);
  return { ...env, webhookSecret: env.PAYMENT_WEBHOOK_SECRET ?? DEVELOPMENT_WEBHOOK_SECRET, paymentProvider: paymentProvider(env) };
}
