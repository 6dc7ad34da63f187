// LOCAL STAND-IN OF THE PAYMENT PROVIDER: not an authority, never run in production. It plays the
// provider billing creates top-up checkouts with, so that the dashboard's "Top up" works on a
// developer's machine and in tests (README "Payment provider stand-in").
import { z } from "zod";

/** What the stand-in is configured with (from env.ts, or built directly by tests). */
export interface PaymentProviderStandInConfig {
  /** The key billing must send as `Authorization: Bearer <key>` (billing's PAYMENT_PROVIDER_API_KEY). */
  apiKey: string;
  /** Billing's POST /webhooks/payments. */
  webhookUrl: string;
  /** The secret the payment webhook is signed with (billing's PAYMENT_WEBHOOK_SECRET). */
  webhookSecret: string;
  /** How long a webhook delivery may take. */
  webhookTimeoutMs: number;
  /** Checkout sessions kept (oldest evicted first). */
  maxSessions: number;
  /**
   * The origin browsers reach the checkout page at, when it is not the simulator's own public URL
   * (under docker-compose the services call http://authority-sim:4100, a browser localhost:4100).
   */
  checkoutPublicUrl?: string;
}

/** billing's development defaults (apps/billing/src/env.ts), so that `npm start` needs no setting. */
export const DEVELOPMENT_PROVIDER_API_KEY = "dormant-development-payment-provider-key";
export const DEVELOPMENT_WEBHOOK_SECRET = "dormant-development-payment-webhook-secret";

const emptyIsUnset = (value: unknown) => (value === "" ? undefined : value);
const optionalText = (min: number) => z.preprocess(emptyIsUnset, z.string().min(min).optional());

/**
 * The stand-in's variables. Each falls back to billing's own variable of the same meaning (the
 * processes `npm start` runs share one environment), then to billing's development default.
 */
export const paymentProviderEnvShape = {
  /** on / off; default on, except off when NODE_ENV=production (the stand-in is never production). */
  SIM_PAYMENT_PROVIDER: z.enum(["on", "off"]).optional(),
  SIM_PAYMENT_PROVIDER_API_KEY: optionalText(16),
  PAYMENT_PROVIDER_API_KEY: optionalText(16),
  SIM_PAYMENT_WEBHOOK_URL: z.preprocess(emptyIsUnset, z.url().optional()),
  SIM_PAYMENT_WEBHOOK_SECRET: optionalText(32),
  PAYMENT_WEBHOOK_SECRET: optionalText(32),
  BILLING_PORT: z.coerce.number().int().min(0).max(65_535).default(4400),
  SIM_PAYMENT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  SIM_PAYMENT_CHECKOUT_PUBLIC_URL: z.preprocess(emptyIsUnset, z.url().optional()),
} as const;

type PaymentProviderEnv = z.infer<z.ZodObject<typeof paymentProviderEnvShape>>;

/** The stand-in's configuration, or null when it is off. */
export function paymentProviderStandInConfig(env: PaymentProviderEnv & { NODE_ENV: string }): PaymentProviderStandInConfig | null {
  const enabled = env.SIM_PAYMENT_PROVIDER ? env.SIM_PAYMENT_PROVIDER === "on" : env.NODE_ENV !== "production";
  if (!enabled) return null;
  return {
    apiKey: env.SIM_PAYMENT_PROVIDER_API_KEY ?? env.PAYMENT_PROVIDER_API_KEY ?? DEVELOPMENT_PROVIDER_API_KEY,
    webhookUrl: env.SIM_PAYMENT_WEBHOOK_URL ?? `http://127.0.0.1:${env.BILLING_PORT}/webhooks/payments`,
    webhookSecret: env.SIM_PAYMENT_WEBHOOK_SECRET ?? env.PAYMENT_WEBHOOK_SECRET ?? DEVELOPMENT_WEBHOOK_SECRET,
    webhookTimeoutMs: env.SIM_PAYMENT_WEBHOOK_TIMEOUT_MS,
    maxSessions: 10_000,
    ...(env.SIM_PAYMENT_CHECKOUT_PUBLIC_URL ? { checkoutPublicUrl: env.SIM_PAYMENT_CHECKOUT_PUBLIC_URL.replace(/\/+$/, "") } : {}),
  };
}
