import { z } from "zod";
import { baseEnvSchema, parseEnv } from "@dormant/service-kit";
import type { SimConfig } from "./config.ts";
import { paymentProviderEnvShape, paymentProviderStandInConfig } from "./payment-provider/config.ts";
import { TIMING_PRESETS } from "./timing.ts";

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");

/** Every setting of the simulator, from the environment (see the README for each variable). */
export const simEnvSchema = baseEnvSchema.extend({
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4100),
  SIM_HOST: z.string().min(1).default("127.0.0.1"),
  /** Base URL clients reach the simulator at; used in ResponseEndPoint. Default: the request's Host. */
  SIM_PUBLIC_URL: z.url().optional(),
  SIM_TIMING: z.enum(["fast", "realistic"]).default("fast"),
  SIM_OUTCOME_DELAY_MS: z.coerce.number().int().min(0).optional(),
  SIM_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(0).optional(),
  /** How long a request the authority "stops answering" is held before its connection is dropped. */
  SIM_HANG_MS: z.coerce.number().int().positive().default(60_000),
  SIM_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  SIM_MAX_SUBMISSIONS: z.coerce.number().int().positive().default(100_000),
  SIM_MAX_RECEIVED: z.coerce.number().int().positive().default(100_000),
  SIM_TAX_REFUSED_CREDENTIAL: z.string().min(1).default("REFUSED"),
  /** on: HMRC's compiled CT600 business rules judge every return (needs xsltproc); off: the simulator's own 9100/9101. */
  SIM_BUSINESS_RULES: z.enum(["on", "off"]).default("on"),
  SIM_REGISTRY_PRESENTER_ID: z.string().min(1).default("66666666666"),
  SIM_REGISTRY_PRESENTER_AUTH_CODE: z.string().min(1).default("SIMAUTHCODE"),
  SIM_REGISTRY_REFUSED_COMPANY_AUTH_CODE: z
    .string()
    .regex(/^[A-Z0-9]{6}$/)
    .default("000000"),
  SIM_REGISTRY_DATA_API_KEY: z.string().min(1).default("sim-registry-data-key"),
  SIM_REGISTRY_DATA_RATE_LIMIT: z.coerce.number().int().min(0).default(0),
  SIM_REGISTRY_DATA_AS_OF: isoDate.default("2026-10-01"),
  /** The local stand-in of the payment provider (README "Payment provider stand-in"). */
  ...paymentProviderEnvShape,
});

/** The simulator's configuration from environment variables (throws ConfigError on bad input). */
export function loadConfig(source: Record<string, string | undefined> = process.env): SimConfig {
  const env = parseEnv(simEnvSchema, source);
  const preset = TIMING_PRESETS[env.SIM_TIMING];
  return {
    port: env.SIM_PORT,
    host: env.SIM_HOST,
    publicUrl: env.SIM_PUBLIC_URL?.replace(/\/+$/, ""),
    timing: {
      mode: env.SIM_TIMING,
      outcomeDelayMs: env.SIM_OUTCOME_DELAY_MS ?? preset.outcomeDelayMs,
      pollIntervalSeconds: env.SIM_POLL_INTERVAL_SECONDS ?? preset.pollIntervalSeconds,
    },
    hangMs: env.SIM_HANG_MS,
    maxBodyBytes: env.SIM_MAX_BODY_BYTES,
    maxSubmissions: env.SIM_MAX_SUBMISSIONS,
    maxReceived: env.SIM_MAX_RECEIVED,
    tax: { refusedCredential: env.SIM_TAX_REFUSED_CREDENTIAL, businessRules: env.SIM_BUSINESS_RULES === "on" },
    registry: {
      presenterId: env.SIM_REGISTRY_PRESENTER_ID,
      presenterAuthCode: env.SIM_REGISTRY_PRESENTER_AUTH_CODE,
      refusedCompanyAuthCode: env.SIM_REGISTRY_REFUSED_COMPANY_AUTH_CODE,
    },
    registryData: {
      apiKey: env.SIM_REGISTRY_DATA_API_KEY,
      rateLimitPer5Min: env.SIM_REGISTRY_DATA_RATE_LIMIT,
      asOf: env.SIM_REGISTRY_DATA_AS_OF,
    },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    paymentProvider: paymentProviderStandInConfig(env),
  };
}
