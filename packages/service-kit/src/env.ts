import { z } from "zod";

/** Settings every service shares; each service extends this with its own `env.ts` schema. */
export const baseEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  SERVICE_VERSION: z.string().default("1.0.0"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Parses the environment once at boot so that a bad configuration fails fast with every problem
 * listed by variable name (values are never echoed: they may be secrets).
 */
export function parseEnv<S extends z.ZodType>(schema: S, source: Record<string, string | undefined> = process.env): z.infer<S> {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`));
  }
  return result.data;
}

/** A boolean from env text: "true"/"1"/"yes" are true, "false"/"0"/"no"/"" are false. */
export const envBoolean = z.enum(["true", "false", "1", "0", "yes", "no", ""]).transform((v) => v === "true" || v === "1" || v === "yes");

/** A positive whole number from env text, `fallback` when unset. */
export const envPositiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
