import { DEVELOPMENT_SEALING_KEY, sealingKeyFromBase64, type SealingKey } from "@dormant/contracts";
import { baseEnvSchema, ConfigError, envPositiveInt, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { gatewayDatabaseEnvShape } from "./db/settings.ts";
import { apiKeyEnvShape, resolveApiKeyPepper } from "./keys/pepper.ts";
import { IDEMPOTENCY_CLAIM_TTL_MS } from "./idempotency/store.ts";
import { DEFAULT_KEY_CACHE_TTL_MS } from "./keys/verifier.ts";
import { DEFAULT_LOOKUP_QUEUE_LIMIT } from "./auth/serial-lookups.ts";
import { FORWARDED_ADDRESS_SECRET_MIN_LENGTH } from "@dormant/contracts";
import { DEFAULT_KEY_LIMITS, DEFAULT_VALIDATION_LIMITS } from "./rate-limit/limits.ts";

/** Every setting of the gateway, read once at boot (README "Configuration" lists them). */
export const gatewayEnvSchema = baseEnvSchema.extend({
  ...gatewayDatabaseEnvShape,
  ...apiKeyEnvShape,
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  REDIS_URL: z.url().default("redis://127.0.0.1:6379"),
  /** Prefix of every Redis key the gateway writes (rate-limit counters, idempotency records). */
  REDIS_KEY_PREFIX: z.string().default("dormant:"),
  AMQP_URL: z.url().default("amqp://guest:guest@127.0.0.1:5672"),
  /** Largest accepted request body; larger ones get 413. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(32_768),
  /** How long a live submit / read waits for the filing service's RPC reply. */
  FILING_RPC_SUBMIT_TIMEOUT_MS: envPositiveInt(30_000),
  FILING_RPC_READ_TIMEOUT_MS: envPositiveInt(5_000),
  /**
   * How long a request's hold on its Idempotency-Key lasts without being refreshed (the gateway
   * refreshes it every third of that while the request runs): after a gateway dies, the client's
   * retry through another gateway waits at most this long for the dead one's claim to lapse.
   */
  IDEMPOTENCY_CLAIM_TTL_MS: z.coerce.number().int().min(1_000).default(IDEMPOTENCY_CLAIM_TTL_MS),
  /** How long an API key's row is trusted without asking the database (revocation delay). */
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(DEFAULT_KEY_CACHE_TTL_MS),
  /** Limits of keys whose account sets none (spec section 8). */
  RATE_LIMIT_PER_MINUTE: envPositiveInt(DEFAULT_KEY_LIMITS.perMinute),
  RATE_LIMIT_PER_DAY: envPositiveInt(DEFAULT_KEY_LIMITS.perDay),
  /** The validate-only routes' limit per account and mode, across its keys. */
  VALIDATION_RATE_PER_MINUTE: envPositiveInt(DEFAULT_VALIDATION_LIMITS.perMinute),
  VALIDATION_RATE_PER_DAY: envPositiveInt(DEFAULT_VALIDATION_LIMITS.perDay),
  /** Proxies in front of the gateway whose X-Forwarded-For is trusted (0: use the socket address). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Shared with the MCP server only: proves its X-Dormant-Client-Address (its caller's address),
   * so failed authentications through MCP count per MCP caller. Unset: the header is ignored.
   */
  MCP_CLIENT_ADDRESS_SECRET: z.string().min(FORWARDED_ADDRESS_SECRET_MIN_LENGTH).optional(),
  /**
   * Key lookups (keys not in the cache) that may wait per address over its failed-authentication
   * limit, per replica, behind the one running; beyond them the request is answered 429.
   */
  AUTH_LOOKUP_QUEUE_LIMIT: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_LOOKUP_QUEUE_LIMIT),
  /** Key (base64, 32 bytes) that seals third-party credentials on the bus; required in production. */
  CREDENTIALS_SEALING_KEY: z.string().optional(),
  CREDENTIALS_SEALING_KEY_ID: z.string().min(1).max(64).default("k1"),
});
export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

export interface GatewayConfig extends GatewayEnv {
  apiKeyPepper: string;
  sealingKey: SealingKey;
}

function resolveSealingKey(env: GatewayEnv): SealingKey {
  if (env.CREDENTIALS_SEALING_KEY) {
    try {
      return sealingKeyFromBase64(env.CREDENTIALS_SEALING_KEY_ID, env.CREDENTIALS_SEALING_KEY);
    } catch {
      throw new ConfigError(["CREDENTIALS_SEALING_KEY: must be 32 bytes, base64-encoded"]);
    }
  }
  if (env.NODE_ENV === "production") throw new ConfigError(["CREDENTIALS_SEALING_KEY: required in production"]);
  return sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64);
}

/** Parses and resolves the configuration; throws ConfigError listing every problem. */
export function loadGatewayConfig(source: Record<string, string | undefined> = process.env): GatewayConfig {
  const env = parseEnv(gatewayEnvSchema, source);
  return { ...env, apiKeyPepper: resolveApiKeyPepper(env), sealingKey: resolveSealingKey(env) };
}
