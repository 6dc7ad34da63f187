import { baseEnvSchema, ConfigError, envPositiveInt, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { amqpEnvShape } from "./bus/settings.ts";
import { billingDatabaseEnvShape } from "./db/settings.ts";

/** Used outside production only, so that a fresh clone works without configuration. */
export const DEVELOPMENT_WEBHOOK_SECRET = "dormant-development-payment-webhook-secret";

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
  /** How far a webhook's signed timestamp may be from now, in seconds. */
  PAYMENT_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** Unacknowledged deliveries per consumer: filing events, and RPC requests (holds, balances). */
  BILLING_EVENTS_PREFETCH: envPositiveInt(10),
  BILLING_RPC_PREFETCH: envPositiveInt(20),
});
export type BillingEnv = z.infer<typeof billingEnvSchema>;

export interface BillingConfig extends BillingEnv {
  webhookSecret: string;
}

/** Parses and resolves the configuration; throws ConfigError listing every problem. */
export function loadBillingConfig(source: Record<string, string | undefined> = process.env): BillingConfig {
  const env = parseEnv(billingEnvSchema, source);
  if (!env.PAYMENT_WEBHOOK_SECRET && env.NODE_ENV === "production")
    throw new ConfigError(["PAYMENT_WEBHOOK_SECRET: required in production"]);
  return { ...env, webhookSecret: env.PAYMENT_WEBHOOK_SECRET ?? DEVELOPMENT_WEBHOOK_SECRET };
}
