import { envPositiveInt } from "@dormant/service-kit";
import { z } from "zod";
import { authorityLimitsEnvShape } from "./authority-limits.ts";
import { breakerEnvShape } from "./breaker-settings.ts";
import { sealingKeysEnvShape } from "./sealing-keys.ts";

/**
 * The settings both submitter workers share: infrastructure, ops endpoints, breakers, sealing
 * keys, concurrency and how long submissions and completions are remembered. Each worker adds its
 * authority's own settings (its README "Configuration" explains each).
 */
export function submitterWorkerEnvShape({ defaultOpsPort }: { defaultOpsPort: number }) {
  return {
    ...breakerEnvShape,
    ...authorityLimitsEnvShape,
    ...sealingKeysEnvShape,
    AMQP_URL: z.url().default("amqp://guest:guest@127.0.0.1:5672"),
    REDIS_URL: z.url().default("redis://127.0.0.1:6379"),
    REDIS_KEY_PREFIX: z.string().default("dormant:"),
    OPS_PORT: z.coerce.number().int().min(0).max(65_535).default(defaultOpsPort),
    OPS_HOST: z.string().min(1).default("0.0.0.0"),
    /** How long after its submission a filing part may stay without a final answer before it ends in `error`. */
    POLL_GIVE_UP_AFTER_SECONDS: z.coerce.number().int().positive().optional(),
    /** Poll commands one replica handles at once. */
    POLL_PREFETCH: envPositiveInt(16),
    /** Submit RPCs one replica handles at once. */
    SUBMIT_PREFETCH: envPositiveInt(8),
    /** How long a submission is remembered, so that a repeated submit RPC never submits again. */
    SUBMIT_DEDUPE_TTL_SECONDS: envPositiveInt(24 * 60 * 60),
    /**
     * How long after a submit attempt ended in doubt (sent, no answer) the authority's own word
     * that it does not have the submission is believed (see resolve-in-doubt.ts).
     */
    IN_DOUBT_SETTLE_SECONDS: z.coerce.number().int().min(0).default(30),
    /** How long a completed submission is remembered, so that a redelivered poll publishes nothing. */
    COMPLETION_TTL_SECONDS: envPositiveInt(7 * 24 * 60 * 60),
  };
}
