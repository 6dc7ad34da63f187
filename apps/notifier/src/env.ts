import { type SealingKey, sealingKeysFromSettings } from "@dormant/contracts";
import { baseEnvSchema, ConfigError, envBoolean, envPositiveInt, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { amqpEnvShape } from "./bus/settings.ts";
import { notifierDatabaseEnvShape } from "./db/settings.ts";

const DAY_SECONDS = 24 * 60 * 60;

/** 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, then every 12 h (the last one repeats). */
export const DEFAULT_RETRY_SCHEDULE_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 43_200] as const;

const secondsList = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, "must be whole numbers of seconds separated by commas")
  .transform((text) => text.split(",").map((part) => Number(part.trim())))
  .refine((values) => values.every((value) => value >= 1), "every delay must be at least 1 second");

/** Every setting of the notifier, read once at boot (README "Configuration" lists them). */
export const notifierEnvSchema = baseEnvSchema.extend({
  ...notifierDatabaseEnvShape,
  ...amqpEnvShape,
  NOTIFIER_DATABASE_POOL_MAX: envPositiveInt(10),
  /** Ops endpoints (/healthz, /readyz, /metrics). */
  NOTIFIER_PORT: z.coerce.number().int().min(0).max(65_535).default(4500),
  NOTIFIER_HOST: z.string().min(1).default("0.0.0.0"),
  /** The key that seals the endpoints' signing secrets (base64 of 32 bytes) and its id; retired keys `id:base64,...`. */
  NOTIFIER_SEALING_KEY: z.string().optional(),
  NOTIFIER_SEALING_KEY_ID: z.string().min(1).max(64).default("k1"),
  NOTIFIER_SEALING_KEYS_RETIRED: z.string().optional(),
  /** Loopback and private addresses allowed as webhook targets (default: true outside production). */
  WEBHOOK_ALLOW_PRIVATE_URLS: envBoolean.optional(),
  /**
   * How long an attempt waits for the endpoint's answer (connect, headers and the first KiB of
   * body). At most 15 s: the deliver handler itself must finish within notifier.deliver's 20 s.
   */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(15_000).default(10_000),
  /** The waits between attempts, in seconds; the last one repeats until the horizon. */
  WEBHOOK_RETRY_SCHEDULE_SECONDS: secondsList.optional(),
  /** A delivery is given up (failed) when its next attempt would come later than this after its first. */
  WEBHOOK_RETRY_HORIZON_SECONDS: envPositiveInt(3 * DAY_SECONDS),
  /** An endpoint failing without a single success for this long is disabled. */
  WEBHOOK_DISABLE_AFTER_SECONDS: envPositiveInt(3 * DAY_SECONDS),
  /** After a rotation, the previous secret still signs (a second signature) for this long. */
  WEBHOOK_SECRET_OVERLAP_SECONDS: envPositiveInt(DAY_SECONDS),
  /** Attempts in flight at once to one endpoint (in this process, and across replicas; more wait 1 s on the bus). */
  WEBHOOK_ENDPOINT_CONCURRENCY: envPositiveInt(4),
  /** Attempts in flight at once for one account and mode, across every replica (more wait on the bus). */
  WEBHOOK_ACCOUNT_CONCURRENCY: envPositiveInt(8),
  /** Attempts in flight at once to one destination host name and mode, across every replica (more wait on the bus). */
  WEBHOOK_HOST_CONCURRENCY: envPositiveInt(16),
  /** The sweeper re-sends deliver commands of pending deliveries due longer ago than this. */
  WEBHOOK_SWEEP_OVERDUE_SECONDS: envPositiveInt(30),
  WEBHOOK_SWEEP_INTERVAL_MS: envPositiveInt(10_000),
  /** Settled deliveries, their attempts and events are purged this long after they settled (default 30 days). */
  WEBHOOK_RETENTION_SECONDS: envPositiveInt(30 * DAY_SECONDS),
  WEBHOOK_RETENTION_INTERVAL_MS: envPositiveInt(60 * 60 * 1000),
  /** How often webhook_backlog_age_seconds is refreshed. */
  WEBHOOK_BACKLOG_INTERVAL_MS: envPositiveInt(15_000),
  /** Unacknowledged deliveries per consumer. */
  NOTIFIER_DELIVERIES_PREFETCH: envPositiveInt(32),
  /** Test-mode deliveries (sandbox events, "Send test"): their own consumer, smaller. */
  NOTIFIER_TEST_DELIVERIES_PREFETCH: envPositiveInt(8),
  NOTIFIER_EVENTS_PREFETCH: envPositiveInt(10),
  NOTIFIER_RPC_PREFETCH: envPositiveInt(20),
});
export type NotifierEnv = z.infer<typeof notifierEnvSchema>;

export interface NotifierConfig extends NotifierEnv {
  /** The current key first (it seals), then the retired ones (they only open). */
  sealingKeys: SealingKey[];
  allowPrivateUrls: boolean;
  httpsOnly: boolean;
  retryScheduleSeconds: readonly number[];
}

/** The sealing keys: NOTIFIER_SEALING_KEY (required in production; the development key otherwise) and the retired ones. */
function resolveSealingKeys(env: NotifierEnv, problems: string[]): SealingKey[] {
  const resolved = sealingKeysFromSettings({
    production: env.NODE_ENV === "production",
    current: env.NOTIFIER_SEALING_KEY,
    currentId: env.NOTIFIER_SEALING_KEY_ID,
    retired: env.NOTIFIER_SEALING_KEYS_RETIRED,
    names: { current: "NOTIFIER_SEALING_KEY", retired: "NOTIFIER_SEALING_KEYS_RETIRED" },
  });
  problems.push(...resolved.problems);
  return resolved.keys;
}

/** Parses and resolves the configuration; throws ConfigError listing every problem (never a value). */
export function loadNotifierConfig(source: Record<string, string | undefined> = process.env): NotifierConfig {
  const env = parseEnv(notifierEnvSchema, source);
  const problems: string[] = [];
  const sealingKeys = resolveSealingKeys(env, problems);
  const production = env.NODE_ENV === "production";
  if (production && env.WEBHOOK_RETRY_HORIZON_SECONDS < 3 * DAY_SECONDS)
    problems.push("WEBHOOK_RETRY_HORIZON_SECONDS: must be at least 259200 (3 days) in production");
  if (production && env.WEBHOOK_DISABLE_AFTER_SECONDS < 3 * DAY_SECONDS)
    problems.push("WEBHOOK_DISABLE_AFTER_SECONDS: must be at least 259200 (3 days) in production");
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    ...env,
    sealingKeys,
    allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS ?? !production,
    httpsOnly: production,
    retryScheduleSeconds: env.WEBHOOK_RETRY_SCHEDULE_SECONDS ?? DEFAULT_RETRY_SCHEDULE_SECONDS,
  };
}
