import { ConfigError } from "@dormant/service-kit";
import { z } from "zod";

/** Used outside production only, so that a fresh clone works without configuration. */
export const DEVELOPMENT_PEPPER = "dormant-development-pepper-never-use-in-production";

/** The env shape the gateway and the admin CLI share (merged into the gateway's env.ts). */
export const apiKeyEnvShape = {
  // An empty value counts as unset.
  API_KEY_PEPPER: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
};

/**
 * The server-side secret that API key hashes are keyed with. Required in production (a public
 * default would make the hashes plain SHA-256); changing it invalidates every issued key.
 */
export function resolveApiKeyPepper(env: { NODE_ENV?: string | undefined; API_KEY_PEPPER?: string | undefined }): string {
  if (env.API_KEY_PEPPER) return env.API_KEY_PEPPER;
  if (env.NODE_ENV === "production") throw new ConfigError(["API_KEY_PEPPER: required in production"]);
  return DEVELOPMENT_PEPPER;
}
