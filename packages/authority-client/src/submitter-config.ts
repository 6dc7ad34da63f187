import type { SealingKey } from "@dormant/contracts";
import { baseEnvSchema, ConfigError } from "@dormant/service-kit";
import type { z } from "zod";
import { authorityLimitsFromEnv, type AuthorityLimitSettings } from "./authority-limits.ts";
import { breakerSettingsFromEnv, type BreakerSettings } from "./breaker-settings.ts";
import { resolveSealingKeys } from "./sealing-keys.ts";
import { submitterWorkerEnvShape } from "./worker-env.ts";

const submitterEnvSchema = baseEnvSchema.extend(submitterWorkerEnvShape({ defaultOpsPort: 0 }));

/** The parsed settings every submitter's environment has (its schema extends these). */
export type SubmitterEnv = z.infer<typeof submitterEnvSchema>;

/** The configuration both workers share; each adds a block of its authority's own. */
export interface SubmitterConfig {
  nodeEnv: SubmitterEnv["NODE_ENV"];
  serviceVersion: string;
  shutdownTimeoutMs: number;
  amqpUrl: string;
  redisUrl: string;
  /** Prefix of every Redis key the worker writes (followed by `<service>:`). */
  redisKeyPrefix: string;
  ops: { port: number; host: string };
  breaker: BreakerSettings;
  /** The limits toward the authority, shared by all replicas. */
  limits: AuthorityLimitSettings;
  sealingKeys: SealingKey[];
  /** The polling horizon: a submission undecided this long after it was made ends in error. */
  pollGiveUpAfterSeconds: number;
  pollPrefetch: number;
  submitPrefetch: number;
  submitDedupeTtlSeconds: number;
  completionTtlSeconds: number;
  /** How long after an attempt ended in doubt the authority's "I do not have it" is believed. */
  inDoubtSettleSeconds: number;
}

/**
 * The shared part of a worker's configuration, from its parsed environment. `problems` holds the
 * worker's own (settings its authority requires in production); the sealing keys' are added after
 * them, and if there is any, one ConfigError lists them all.
 */
export function submitterConfigFromEnv(
  env: SubmitterEnv,
  options: { problems: string[]; pollGiveUpAfterSeconds: number },
): SubmitterConfig {
  const problems = [...options.problems];
  let sealingKeys: SealingKey[] = [];
  try {
    sealingKeys = resolveSealingKeys(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    nodeEnv: env.NODE_ENV,
    serviceVersion: env.SERVICE_VERSION,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    amqpUrl: env.AMQP_URL,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    ops: { port: env.OPS_PORT, host: env.OPS_HOST },
    breaker: breakerSettingsFromEnv(env),
    limits: authorityLimitsFromEnv(env),
    sealingKeys,
    pollGiveUpAfterSeconds: options.pollGiveUpAfterSeconds,
    pollPrefetch: env.POLL_PREFETCH,
    submitPrefetch: env.SUBMIT_PREFETCH,
    submitDedupeTtlSeconds: env.SUBMIT_DEDUPE_TTL_SECONDS,
    completionTtlSeconds: env.COMPLETION_TTL_SECONDS,
    inDoubtSettleSeconds: env.IN_DOUBT_SETTLE_SECONDS,
  };
}
