import { type SealingKey, sealingKeysFromSettings } from "@dormant/contracts";
import { ConfigError } from "@dormant/service-kit";
import { z } from "zod";

/**
 * The keys that open sealed credentials, with the gateway's variable names: the current key
 * (CREDENTIALS_SEALING_KEY, base64 of 32 bytes, and its id) and, during a rotation, the retired
 * ones still needed for messages sealed before it (`id:base64` pairs separated by commas).
 */
export const sealingKeysEnvShape = {
  CREDENTIALS_SEALING_KEY: z.string().optional(),
  CREDENTIALS_SEALING_KEY_ID: z.string().min(1).max(64).default("k1"),
  CREDENTIALS_SEALING_KEYS_RETIRED: z.string().optional(),
};

interface SealingEnv {
  NODE_ENV: "development" | "test" | "production";
  CREDENTIALS_SEALING_KEY?: string | undefined;
  CREDENTIALS_SEALING_KEY_ID: string;
  CREDENTIALS_SEALING_KEYS_RETIRED?: string | undefined;
}

/**
 * Every key a worker may open credentials with. Without CREDENTIALS_SEALING_KEY, production
 * refuses to start and other environments use the development key (as the gateway does).
 * Problems name the variable, never its value.
 */
export function resolveSealingKeys(env: SealingEnv): SealingKey[] {
  const { keys, problems } = sealingKeysFromSettings({
    production: env.NODE_ENV === "production",
    current: env.CREDENTIALS_SEALING_KEY,
    currentId: env.CREDENTIALS_SEALING_KEY_ID,
    retired: env.CREDENTIALS_SEALING_KEYS_RETIRED,
    names: { current: "CREDENTIALS_SEALING_KEY", retired: "CREDENTIALS_SEALING_KEYS_RETIRED" },
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return keys;
}
