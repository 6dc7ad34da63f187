import { submitterConfigFromEnv, submitterWorkerEnvShape, type SubmitterConfig } from "@dormant/authority-client";
import { baseEnvSchema, envBoolean, parseEnv } from "@dormant/service-kit";
import { z } from "zod";

/** Every setting of the tax submitter (README "Configuration" explains each). */
export const taxSubmitterEnvSchema = baseEnvSchema.extend({
  ...submitterWorkerEnvShape({ defaultOpsPort: 4201 }),
  /** The transaction engine's base URL (`/submission` and `/poll` below it); required in production. */
  TAX_BASE_URL: z.url().optional(),
  /** GatewayTest 1 (the authority's test service); default true outside production, false in it. */
  TAX_GATEWAY_TEST: envBoolean.optional(),
  /** The 4-digit vendor ID the tax authority allocated to this software; required in production. */
  TAX_VENDOR_ID: z
    .string()
    .regex(/^\d{4}$/, "must be 4 digits")
    .optional(),
  TAX_PRODUCT_NAME: z.string().trim().min(1).default("Dormant Filing Platform"),
  /** Defaults to SERVICE_VERSION. */
  TAX_PRODUCT_VERSION: z.string().trim().min(1).optional(),
  /** CT600 `CompanyType` code of every return (0: UK resident company). */
  TAX_COMPANY_TYPE: z.coerce.number().int().min(0).max(11).default(0),
  /**
   * Validation checks (`tax.check_part`, on `tax.check`) one replica runs at once: each spends
   * ~0.1 s of CPU in xsltproc, so a few per core, apart from the submits' SUBMIT_PREFETCH.
   */
  CHECK_PREFETCH: z.coerce.number().int().positive().default(2),
  /**
   * How long after a part ended in `error` at its give-up time (no final answer) the Transaction
   * Engine is still asked about it, so that a late acceptance is not missed; 0: never. Default 3
   * days in production, 1 hour in development and tests.
   */
  TAX_LATE_CHECK_SECONDS: z.coerce.number().int().min(0).optional(),
  /** The wait between two late checks of a part. Default 1 hour in production, 30 s otherwise. */
  TAX_LATE_CHECK_INTERVAL_SECONDS: z.coerce.number().int().positive().optional(),
});
export type TaxSubmitterEnv = z.infer<typeof taxSubmitterEnvSchema>;

/**
 * Give-up and late-check defaults. Development and tests have production's shape at a shorter
 * scale: a part is polled for minutes (not 20 s: an authority outage of half a minute must not end
 * filings the authority goes on to accept), then checked late, every half minute for an hour, so a
 * late acceptance is applied as in production. Tests that need a fast give-up set it explicitly.
 */
const GIVE_UP_SECONDS = { development: 5 * 60, test: 5 * 60, production: 4 * 60 * 60 } as const;
/** Late checks after a give-up: an hour outside production, 3 days in it. */
const LATE_CHECK_SECONDS = { development: 60 * 60, test: 60 * 60, production: 3 * 24 * 60 * 60 } as const;
const LATE_CHECK_INTERVAL_SECONDS = { development: 30, test: 30, production: 60 * 60 } as const;
const DEVELOPMENT_TAX_BASE_URL = "http://127.0.0.1:4100/tax";
const DEVELOPMENT_VENDOR_ID = "0000";

/** The shared settings (SubmitterConfig) and the Transaction Engine's own. */
export interface TaxSubmitterConfig extends SubmitterConfig {
  tax: {
    submissionUrl: string;
    pollUrl: string;
    gatewayTest: boolean;
    vendorId: string;
    productName: string;
    productVersion: string;
    companyType: number;
  };
  /** Late checks of a part that ended in `error` at its give-up time (seconds 0: none). */
  lateCheck: { seconds: number; intervalSeconds: number };
  /** Validation checks one replica runs at once (`tax.check`). */
  checkPrefetch: number;
}

/** Parses and resolves the configuration once at boot; throws ConfigError listing every problem. */
export function loadTaxSubmitterConfig(source: Record<string, string | undefined> = process.env): TaxSubmitterConfig {
  const env = parseEnv(taxSubmitterEnvSchema, source);
  const production = env.NODE_ENV === "production";
  const problems: string[] = [];
  if (production && !env.TAX_BASE_URL) problems.push("TAX_BASE_URL: required in production");
  if (production && !env.TAX_VENDOR_ID) problems.push("TAX_VENDOR_ID: required in production");
  const shared = submitterConfigFromEnv(env, {
    problems,
    pollGiveUpAfterSeconds: env.POLL_GIVE_UP_AFTER_SECONDS ?? GIVE_UP_SECONDS[env.NODE_ENV],
  });
  const base = (env.TAX_BASE_URL ?? DEVELOPMENT_TAX_BASE_URL).replace(/\/+$/, "");
  return {
    ...shared,
    tax: {
      submissionUrl: `${base}/submission`,
      pollUrl: `${base}/poll`,
      gatewayTest: env.TAX_GATEWAY_TEST ?? !production,
      vendorId: env.TAX_VENDOR_ID ?? DEVELOPMENT_VENDOR_ID,
      productName: env.TAX_PRODUCT_NAME,
      productVersion: env.TAX_PRODUCT_VERSION ?? env.SERVICE_VERSION,
      companyType: env.TAX_COMPANY_TYPE,
    },
    checkPrefetch: env.CHECK_PREFETCH,
    lateCheck: {
      seconds: env.TAX_LATE_CHECK_SECONDS ?? LATE_CHECK_SECONDS[env.NODE_ENV],
      intervalSeconds: env.TAX_LATE_CHECK_INTERVAL_SECONDS ?? LATE_CHECK_INTERVAL_SECONDS[env.NODE_ENV],
    },
  };
}
