import { breakerSettingsFromEnv, resolveSealingKeys, submitterWorkerEnvShape, type BreakerSettings } from "@dormant/authority-client";
import type { SealingKey } from "@dormant/contracts";
import { REGISTRY_AUTH_METHOD, REGISTRY_AUTH_METHODS, type RegistryPresenter } from "@dormant/govtalk";
import { baseEnvSchema, ConfigError, envBoolean, parseEnv } from "@dormant/service-kit";
import { z } from "zod";

/** Every setting of the registry submitter (README "Configuration" explains each). */
export const registrySubmitterEnvSchema = baseEnvSchema.extend({
  ...submitterWorkerEnvShape({ defaultOpsPort: 4202 }),
  /** The XML gateway's base URL (`/v1-0/xmlgw/Gateway` below it); required in production. */
  REGISTRY_GATEWAY_URL: z.url().optional(),
  /** GatewayTest 1 (the registry's test service); default true outside production, false in it. */
  REGISTRY_GATEWAY_TEST: envBoolean.optional(),
  /** The filing agent's presenter account; required in production (development: the simulator's). */
  REGISTRY_PRESENTER_ID: z.string().trim().min(1).optional(),
  REGISTRY_PRESENTER_AUTH_CODE: z.string().trim().min(1).optional(),
  /** `Authentication/Method` sent with the MD5-hashed presenter credentials: clear (default) or CHMD5 (README "Protocol decisions"). */
  REGISTRY_PRESENTER_AUTH_METHOD: z.enum(REGISTRY_AUTH_METHODS).default(REGISTRY_AUTH_METHOD),
  /** The package reference the registry allocated to this software; required in production. */
  REGISTRY_PACKAGE_REFERENCE: z.string().trim().min(1).max(32).optional(),
  /** Seconds between status polls (the registry does not say); default 1 outside production, 60 in it. */
  REGISTRY_POLL_INTERVAL_SECONDS: z.coerce.number().int().positive().optional(),
});
export type RegistrySubmitterEnv = z.infer<typeof registrySubmitterEnvSchema>;

/** Defaults that differ between fast development and production timing. */
const DEFAULTS = {
  development: { giveUpSeconds: 20, pollIntervalSeconds: 1 },
  test: { giveUpSeconds: 20, pollIntervalSeconds: 1 },
  production: { giveUpSeconds: 48 * 60 * 60, pollIntervalSeconds: 60 },
} as const;
/** The simulator's accepted presenter and a package reference for development only. */
const DEVELOPMENT = { gatewayUrl: "http://127.0.0.1:4100/registry", presenterId: "66666666666", presenterAuthCode: "SIMAUTHCODE", packageReference: "0012" };
const GATEWAY_PATH = "/v1-0/xmlgw/Gateway";

export interface RegistrySubmitterConfig {
  nodeEnv: RegistrySubmitterEnv["NODE_ENV"];
  serviceVersion: string;
  shutdownTimeoutMs: number;
  amqpUrl: string;
  redisUrl: string;
  redisKeyPrefix: string;
  ops: { port: number; host: string };
  registry: {
    gatewayUrl: string;
    gatewayTest: boolean;
    presenter: RegistryPresenter;
    packageReference: string;
    pollIntervalSeconds: number;
  };
  breaker: BreakerSettings;
  sealingKeys: SealingKey[];
  pollGiveUpAfterSeconds: number;
  pollPrefetch: number;
  submitPrefetch: number;
  submitDedupeTtlSeconds: number;
  completionTtlSeconds: number;
}

/** Parses and resolves the configuration once at boot; throws ConfigError listing every problem. */
export function loadRegistrySubmitterConfig(source: Record<string, string | undefined> = process.env): RegistrySubmitterConfig {
  const env = parseEnv(registrySubmitterEnvSchema, source);
  const production = env.NODE_ENV === "production";
  const problems: string[] = [];
  if (production) {
    for (const name of ["REGISTRY_GATEWAY_URL", "REGISTRY_PRESENTER_ID", "REGISTRY_PRESENTER_AUTH_CODE", "REGISTRY_PACKAGE_REFERENCE"] as const) {
  /** How long after an attempt ended in doubt the registry's "I do not have it" is believed. */
  inDoubtSettleSeconds: number;
      if (!env[name]) problems.push(`${name}: required in production`);
    }
  }
  let sealingKeys: SealingKey[] = [];
  try {
    sealingKeys = resolveSealingKeys(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const defaults = DEFAULTS[env.NODE_ENV];
  const base = (env.REGISTRY_GATEWAY_URL ?? DEVELOPMENT.gatewayUrl).replace(/\/+$/, "");
  return {
    nodeEnv: env.NODE_ENV,
    serviceVersion: env.SERVICE_VERSION,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    amqpUrl: env.AMQP_URL,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    ops: { port: env.OPS_PORT, host: env.OPS_HOST },
    registry: {
      gatewayUrl: `${base}${GATEWAY_PATH}`,
      gatewayTest: env.REGISTRY_GATEWAY_TEST ?? !production,
      presenter: {
        presenterId: env.REGISTRY_PRESENTER_ID ?? DEVELOPMENT.presenterId,
        presenterAuthCode: env.REGISTRY_PRESENTER_AUTH_CODE ?? DEVELOPMENT.presenterAuthCode,
        authMethod: env.REGISTRY_PRESENTER_AUTH_METHOD,
      },
      packageReference: env.REGISTRY_PACKAGE_REFERENCE ?? DEVELOPMENT.packageReference,
      pollIntervalSeconds: env.REGISTRY_POLL_INTERVAL_SECONDS ?? defaults.pollIntervalSeconds,
    },
    breaker: breakerSettingsFromEnv(env),
    sealingKeys,
    pollGiveUpAfterSeconds: env.POLL_GIVE_UP_AFTER_SECONDS ?? defaults.giveUpSeconds,
    pollPrefetch: env.POLL_PREFETCH,
    submitPrefetch: env.SUBMIT_PREFETCH,
    submitDedupeTtlSeconds: env.SUBMIT_DEDUPE_TTL_SECONDS,
    completionTtlSeconds: env.COMPLETION_TTL_SECONDS,
  };
}
    inDoubtSettleSeconds: env.IN_DOUBT_SETTLE_SECONDS,
