import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, type Sampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace";

/** What a service samples when OTEL_TRACES_SAMPLER is not set (see docs/operations/tracing.md). */
export const DEFAULT_SAMPLER = "parentbased_traceidratio";
/** The ratio of new traces kept when OTEL_TRACES_SAMPLER_ARG is not set. */
export const DEFAULT_SAMPLER_RATIO = 0.1;

/**
 * The sampler the standard variables ask for: OTEL_TRACES_SAMPLER (always_on, always_off,
 * traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio) and
 * OTEL_TRACES_SAMPLER_ARG (the ratio, 0..1). A parent-based sampler follows the caller's sampled
 * flag, so a trace started upstream (an agent's `traceparent`) is kept or dropped as a whole.
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv = process.env): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER ?? DEFAULT_SAMPLER).trim().toLowerCase();
  const ratio = () => {
    const arg = env.OTEL_TRACES_SAMPLER_ARG;
    const value = arg === undefined || arg.trim() === "" ? DEFAULT_SAMPLER_RATIO : Number(arg);
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, not "${arg}"`);
    }
    return new TraceIdRatioBasedSampler(value);
  };
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio();
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio() });
    default:
      throw new Error(`OTEL_TRACES_SAMPLER "${name}" is not supported`);
  }
}
