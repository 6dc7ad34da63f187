import { submitterConfigFromEnv, submitterWorkerEnvShape, type PollBackoff, type SubmitterConfig } from "@dormant/authority-client";
import { REGISTRY_AUTH_METHOD, REGISTRY_AUTH_METHODS, type RegistryPresenter } from "@dormant/govtalk";
import { baseEnvSchema, envBoolean, parseEnv } from "@dormant/service-kit";
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
  /** Seconds before the first status poll, the wait that then doubles (the registry does not say); default 1 outside production, 60 in it. */
  REGISTRY_POLL_INTERVAL_SECONDS: z.coerce.number().int().positive().optional(),
  /** The longest wait between status polls; default 2 s outside production, 900 (15 min, the poll queue's longest tier) in it. */
  REGISTRY_POLL_MAX_INTERVAL_SECONDS: z.coerce.number().int().positive().optional(),
  /** How long after its submission accounts are polled before they end error REGISTRY_NO_DECISION; default 5 minutes outside production, 14 days in it (README "Status polls"). */
  REGISTRY_POLL_HORIZON_SECONDS: z.coerce.number().int().positive().optional(),
});
export type RegistrySubmitterEnv = z.infer<typeof registrySubmitterEnvSchema>;

/**
 * Defaults that differ between development and production timing: the same shape at a shorter
 * scale (a horizon of minutes, not 20 s, so a short outage of the registry does not end accounts
 * it goes on to accept). Tests that need a fast horizon set it explicitly.
 */
const DEFAULTS = {
  development: { horizonSeconds: 5 * 60, pollIntervalSeconds: 1, pollMaxIntervalSeconds: 2 },
  test: { horizonSeconds: 5 * 60, pollIntervalSeconds: 1, pollMaxIntervalSeconds: 2 },
  production: { horizonSeconds: 14 * 24 * 60 * 60, pollIntervalSeconds: 60, pollMaxIntervalSeconds: 15 * 60 },
} as const;
/** Each wait between status polls is twice the one before, up to the longest wait. */
const POLL_BACKOFF_FACTOR = 2;
/** The simulator's accepted presenter and a package reference for development only. */
const DEVELOPMENT = {
  gatewayUrl: "http://127.0.0.1:4100/registry",
  presenterId: "66666666666",
  presenterAuthCode: "SIMAUTHCODE",
  packageReference: "0012",
};
const GATEWAY_PATH = "/v1-0/xmlgw/Gateway";

/** The shared settings (SubmitterConfig; pollGiveUpAfterSeconds is the polling horizon) and the registry's own. */
export interface RegistrySubmitterConfig extends SubmitterConfig {
  registry: {
    gatewayUrl: string;
    gatewayTest: boolean;
    presenter: RegistryPresenter;
    packageReference: string;
    pollIntervalSeconds: number;
    /** The growth of the waits between status polls (starting at pollIntervalSeconds). */
    pollBackoff: PollBackoff;
  };
}

/** Parses and resolves the configuration once at boot; throws ConfigError listing every problem. */
export function loadRegistrySubmitterConfig(source: Record<string, string | undefined> = process.env): RegistrySubmitterConfig {
  const env = parseEnv(registrySubmitterEnvSchema, source);
  const production = env.NODE_ENV === "production";
  const problems: string[] = [];
  if (production) {
    for (const name of [
      "REGISTRY_GATEWAY_URL",
      "REGISTRY_PRESENTER_ID",
      "REGISTRY_PRESENTER_AUTH_CODE",
      "REGISTRY_PACKAGE_REFERENCE",
    ] as const) {
      if (!env[name]) problems.push(`${name}: required in production`);
    }
  }
  const defaults = DEFAULTS[env.NODE_ENV];
  const shared = submitterConfigFromEnv(env, {
    problems,
    // POLL_GIVE_UP_AFTER_SECONDS (shared with the tax submitter) is still honoured when the registry's own setting is absent.
    pollGiveUpAfterSeconds: env.REGISTRY_POLL_HORIZON_SECONDS ?? env.POLL_GIVE_UP_AFTER_SECONDS ?? defaults.horizonSeconds,
  });
  const base = (env.REGISTRY_GATEWAY_URL ?? DEVELOPMENT.gatewayUrl).replace(/\/+$/, "");
  const pollIntervalSeconds = env.REGISTRY_POLL_INTERVAL_SECONDS ?? defaults.pollIntervalSeconds;
  return {
    ...shared,
    registry: {
      gatewayUrl: `${base}${GATEWAY_PATH}`,
      gatewayTest: env.REGISTRY_GATEWAY_TEST ?? !production,
      presenter: {
        presenterId: env.REGISTRY_PRESENTER_ID ?? DEVELOPMENT.presenterId,
        presenterAuthCode: env.REGISTRY_PRESENTER_AUTH_CODE ?? DEVELOPMENT.presenterAuthCode,
        authMethod: env.REGISTRY_PRESENTER_AUTH_METHOD,
      },
      packageReference: env.REGISTRY_PACKAGE_REFERENCE ?? DEVELOPMENT.packageReference,
      pollIntervalSeconds,
      pollBackoff: {
        initialSeconds: pollIntervalSeconds,
        factor: POLL_BACKOFF_FACTOR,
        maxSeconds: env.REGISTRY_POLL_MAX_INTERVAL_SECONDS ?? defaults.pollMaxIntervalSeconds,
      },
    },
  };
}
