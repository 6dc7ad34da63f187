import { DEVELOPMENT_SEALING_KEY, sealingKeyFromBase64, type SealingKey } from "@dormant/contracts";
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
  const problems: string[] = [];
  const keys: SealingKey[] = [];
  if (env.CREDENTIALS_SEALING_KEY) {
    try {
      keys.push(sealingKeyFromBase64(env.CREDENTIALS_SEALING_KEY_ID, env.CREDENTIALS_SEALING_KEY));
    } catch {
      problems.push("CREDENTIALS_SEALING_KEY: must be 32 bytes, base64-encoded");
    }
  } else if (env.NODE_ENV === "production") {
    problems.push("CREDENTIALS_SEALING_KEY: required in production");
  } else {
    keys.push(sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64));
  }
  const retired = (env.CREDENTIALS_SEALING_KEYS_RETIRED ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  retired.forEach((entry, index) => {
    const separator = entry.indexOf(":");
    try {
      if (separator < 1) throw new Error("no id");
      keys.push(sealingKeyFromBase64(entry.slice(0, separator), entry.slice(separator + 1)));
    } catch {
      problems.push(`CREDENTIALS_SEALING_KEYS_RETIRED: entry ${index + 1} must be id:base64 of 32 bytes`);
    }
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return keys;
}
