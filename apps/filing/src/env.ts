import { resolveSealingKeys, sealingKeysEnvShape } from "@dormant/authority-client";
import type { SealingKey } from "@dormant/contracts";
import { baseEnvSchema, envPositiveInt, parseEnv } from "@dormant/service-kit";
import { z } from "zod";
import { filingDatabaseEnvShape } from "./db/settings.ts";

/** Every setting of the filing service, read once at boot (README "Configuration" lists them). */
export const filingEnvSchema = baseEnvSchema.extend({
  ...filingDatabaseEnvShape,
  /** Connections of the filing service's database pool. */
  FILING_DATABASE_POOL_MAX: envPositiveInt(10),
  AMQP_URL: z.url().default("amqp://guest:guest@127.0.0.1:5672"),
  REDIS_URL: z.url().default("redis://127.0.0.1:6379"),
  /** Prefix of every Redis key (the filing service writes under `<prefix>filing:`). */
  REDIS_KEY_PREFIX: z.string().default("dormant:"),
  /** The registry public data API (the simulator's by default) and its key. */
  REGISTRY_DATA_URL: z.url().default("http://127.0.0.1:4100/registry-data"),
  REGISTRY_DATA_API_KEY: z.string().min(1).default("sim-registry-data-key"),
  REGISTRY_DATA_TIMEOUT_MS: envPositiveInt(5_000),
  /** How long registry answers are cached: company data, and "company unknown". */
  REGISTRY_CACHE_TTL_SECONDS: envPositiveInt(600),
  REGISTRY_NOT_FOUND_TTL_SECONDS: envPositiveInt(60),
  /**
   * The key that opens the gateway's sealed credentials and seals them for the submitters
   * (CREDENTIALS_SEALING_KEY, CREDENTIALS_SEALING_KEY_ID: the gateway's), and during a rotation
   * the retired ones (CREDENTIALS_SEALING_KEYS_RETIRED, `id:base64,...`).
   */
  ...sealingKeysEnvShape,
  /** Ops endpoints (/healthz, /readyz, /metrics). */
  OPS_PORT: z.coerce.number().int().min(0).max(65_535).default(4301),
  OPS_HOST: z.string().min(1).default("0.0.0.0"),
  /** How long a submit request holds a filing it works on (then another request may resume it). */
  SUBMIT_CLAIM_SECONDS: envPositiveInt(120),
  /**
   * A pending filing older than this, that no request works on, is settled by the sweeper: it asks
   * the submitters what became of each submission never acknowledged (src/sweeper/).
   */
  SWEEPER_PENDING_AFTER_SECONDS: envPositiveInt(60),
  SWEEPER_INTERVAL_MS: envPositiveInt(30_000),
  /**
   * A split CT600 with part 1 at the tax authority and part 2 never sent waits this long (from its
   * creation) for the client's retry, which alone can send part 2; then part 2 ends `error`.
   */
  SWEEPER_PARTLY_SENT_GIVE_UP_SECONDS: envPositiveInt(24 * 60 * 60),
  /** How often the outbox relay looks for rows (it is also woken at once by every commit here). */
  OUTBOX_RELAY_INTERVAL_MS: envPositiveInt(500),
  OUTBOX_BATCH_SIZE: envPositiveInt(100),
  /** Deliveries handled at once: filing.rpc requests and filing.outcomes messages. */
  RPC_PREFETCH: envPositiveInt(20),
  OUTCOMES_PREFETCH: envPositiveInt(10),
  /** filing.accepted events rendered at once (CPU-bound PDF rendering). */
  DOCUMENTS_PREFETCH: envPositiveInt(2),
  /**
   * Worker threads that render the PDFs, off the event loop (each one PDF at a time, fonts kept
   * warm); 0 renders inline on the event loop, blocking everything else while it renders.
   */
  FILING_DOCUMENT_RENDER_THREADS: z.coerce.number().int().min(0).max(16).default(1),
});
export type FilingEnv = z.infer<typeof filingEnvSchema>;

export interface FilingConfig extends FilingEnv {
  /** The current key first (it seals), then the retired ones (they only open). */
  sealingKeys: SealingKey[];
}

/** Parses and resolves the configuration; throws ConfigError listing every problem. */
export function loadFilingConfig(source: Record<string, string | undefined> = process.env): FilingConfig {
  const env = parseEnv(filingEnvSchema, source);
  return { ...env, sealingKeys: resolveSealingKeys(env) };
}
