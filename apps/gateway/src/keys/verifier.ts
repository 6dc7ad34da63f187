import type { GatewayDb } from "../db/client.ts";
import { DEFAULT_KEY_LIMITS } from "../rate-limit/limits.ts";
import type { RateLimits } from "../rate-limit/limits.ts";
import type { AuthContext } from "../auth/context.ts";
import type { ApiKeyMode, ParsedApiKey } from "./format.ts";
import type { SecretHasher } from "./hash.ts";
import { TtlLruCache } from "./ttl-cache.ts";

export type KeyRejection = "unknown_key" | "revoked" | "wrong_secret" | "wrong_mode";

export type KeyVerification = { ok: true; auth: AuthContext } | { ok: false; reason: KeyRejection };

/** What the database says about one key id, as cached. */
interface KeyRecord {
  keyId: string;
  accountId: string;
  mode: ApiKeyMode;
  secretHash: string;
  revoked: boolean;
  limits: RateLimits;
}

export interface ApiKeyVerifierOptions {
  db: GatewayDb;
  hasher: SecretHasher;
  /** How long a key's row (secret hash, revocation, limits) is trusted without asking the database. */
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  defaultLimits?: RateLimits;
  now?: () => number;
}

export interface ApiKeyVerifier {
  /** The answer from the in-memory cache alone, or undefined when the database must be asked. */
  verifyCached(key: ParsedApiKey): KeyVerification | undefined;
  /** The answer from the cache, else from the database (lookups of one key id are shared). */
  verify(key: ParsedApiKey): Promise<KeyVerification>;
}

export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;

/**
 * Checks API keys against the gateway database. Rows are cached per key id for a few seconds
 * (bounded LRU), so revoking a key or changing an account's limits takes effect within
 * `cacheTtlMs` on every replica; the secret is still hashed and compared in constant time on
 * every request, cached or not.
 */
export function createApiKeyVerifier(options: ApiKeyVerifierOptions): ApiKeyVerifier {
  const defaults = options.defaultLimits ?? DEFAULT_KEY_LIMITS;
  const cache = new TtlLruCache<KeyRecord | null>({
    ttlMs: options.cacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS,
    maxEntries: options.cacheMaxEntries ?? 10_000,
    ...(options.now ? { now: options.now } : {}),
  });
  const inFlight = new Map<string, Promise<KeyRecord | null>>();

  function judge(key: ParsedApiKey, record: KeyRecord | null): KeyVerification {
    if (!record) return { ok: false, reason: "unknown_key" };
    if (!options.hasher.matches(key.secret, record.secretHash)) return { ok: false, reason: "wrong_secret" };
    if (record.mode !== key.mode) return { ok: false, reason: "wrong_mode" };
    if (record.revoked) return { ok: false, reason: "revoked" };
    return { ok: true, auth: { accountId: record.accountId, keyId: record.keyId, mode: record.mode, limits: record.limits } };
  }

  async function load(keyId: string): Promise<KeyRecord | null> {
    const row = await options.db.apiKey.findUnique({
      where: { keyId },
      select: {
        keyId: true,
        accountId: true,
        mode: true,
        secretHash: true,
        revokedAt: true,
        account: { select: { rateLimitPerMinute: true, rateLimitPerDay: true } },
      },
    });
    if (!row) return null;
    return {
      keyId: row.keyId,
      accountId: row.accountId,
      mode: row.mode,
      secretHash: row.secretHash,
      revoked: row.revokedAt !== null,
      limits: {
        perMinute: row.account.rateLimitPerMinute ?? defaults.perMinute,
        perDay: row.account.rateLimitPerDay ?? defaults.perDay,
      },
    };
  }

  function lookup(keyId: string): Promise<KeyRecord | null> {
    const pending = inFlight.get(keyId);
    if (pending) return pending;
    const promise = load(keyId)
      .then((record) => {
        cache.set(keyId, record);
        return record;
      })
      .finally(() => inFlight.delete(keyId));
    inFlight.set(keyId, promise);
    return promise;
  }

  return {
    verifyCached(key) {
      const record = cache.get(key.keyId);
      return record === undefined ? undefined : judge(key, record);
    },
    async verify(key) {
      const cached = cache.get(key.keyId);
      return judge(key, cached === undefined ? await lookup(key.keyId) : cached);
    },
  };
}
