import { envPositiveInt } from "@dormant/service-kit";
import { z } from "zod";

/** How a breaker guards one authority endpoint. */
export interface BreakerSettings {
  /** A call without an answer after this long is aborted and counts as a failure. */
  timeoutMs: number;
  /** The breaker opens when at least this share (%) of the calls in the window failed ... */
  errorThresholdPercentage: number;
  /** ... and the window holds at least this many calls. */
  volumeThreshold: number;
  /** Length of the rolling window the share is measured over. */
  rollingWindowMs: number;
  /** How long an open breaker fails fast before it lets one trial call through (half-open). */
  resetTimeoutMs: number;
}

/** The environment variables of the breakers (the same in both submitter workers). */
export const breakerEnvShape = {
  AUTHORITY_TIMEOUT_MS: envPositiveInt(8_000),
  BREAKER_ERROR_THRESHOLD_PERCENTAGE: z.coerce.number().int().min(1).max(100).default(50),
  BREAKER_VOLUME_THRESHOLD: z.coerce.number().int().min(0).default(5),
  BREAKER_ROLLING_WINDOW_MS: envPositiveInt(10_000),
  BREAKER_RESET_TIMEOUT_MS: envPositiveInt(30_000),
};

type BreakerEnv = { [K in keyof typeof breakerEnvShape]: z.infer<(typeof breakerEnvShape)[K]> };

export function breakerSettingsFromEnv(env: BreakerEnv): BreakerSettings {
  return {
    timeoutMs: env.AUTHORITY_TIMEOUT_MS,
    errorThresholdPercentage: env.BREAKER_ERROR_THRESHOLD_PERCENTAGE,
    volumeThreshold: env.BREAKER_VOLUME_THRESHOLD,
    rollingWindowMs: env.BREAKER_ROLLING_WINDOW_MS,
    resetTimeoutMs: env.BREAKER_RESET_TIMEOUT_MS,
  };
}
