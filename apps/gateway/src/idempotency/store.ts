import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { LuaScript } from "@dormant/service-kit";

/** A request holding the key right now. */
export interface InProgressRecord {
  state: "in_progress";
  token: string;
  fingerprint: string;
}

/** The answer to replay. `body` is base64 so that any bytes survive. */
export interface CompletedRecord {
  state: "completed";
  fingerprint: string;
  status: number;
  contentType: string | null;
  body: string;
  recordedAt: string;
}

export type IdempotencyRecord = InProgressRecord | CompletedRecord;

export type ClaimResult = { claimed: true; token: string } | { claimed: false; existing: IdempotencyRecord };

export interface IdempotencyStore {
  /** How long a claim lives without refresh. */
  readonly claimTtlMs: number;
  /** Takes the key for this request (SET NX with the claim TTL), or returns what holds it. */
  claim(scope: IdempotencyScope, fingerprint: string): Promise<ClaimResult>;
  /** Extends our claim while the request is still running; false when it is no longer ours. */
  refresh(scope: IdempotencyScope, token: string): Promise<boolean>;
  /** Replaces our claim (or an expired one) by the answer, kept for the record TTL; false if another request holds the key. */
  complete(scope: IdempotencyScope, token: string, answer: Omit<CompletedRecord, "state" | "recordedAt">): Promise<boolean>;
  /** Gives the key back (answers that must not be replayed); a claim that is not ours is left alone. */
  release(scope: IdempotencyScope, token: string): Promise<void>;
}

/** Idempotency keys are scoped per API key. */
export interface IdempotencyScope {
  apiKeyId: string;
  idempotencyKey: string;
}

export const IDEMPOTENCY_RECORD_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_CLAIM_TTL_MS = 60_000;

const CLAIM = new LuaScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1} end
return {0, redis.call('GET', KEYS[1])}
`);

// "Ours" = the stored record is the in-progress claim carrying our token.
const OURS = `
local current = redis.call('GET', KEYS[1])
local ours = false
if current then
  local ok, record = pcall(cjson.decode, current)
  ours = ok and type(record) == 'table' and record.state == 'in_progress' and record.token == ARGV[1]
end
`;

const REFRESH = new LuaScript(`${OURS}
if ours then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
`);

const COMPLETE = new LuaScript(`${OURS}
if ours or not current then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end
return 0
`);

const RELEASE = new LuaScript(`${OURS}
if ours then redis.call('DEL', KEYS[1]) return 1 end
return 0
`);

export interface IdempotencyStoreOptions {
  redis: Redis;
  keyPrefix: string;
  /** How long a claim outlives a crashed request (refreshed while the request runs). */
  claimTtlMs?: number;
  /** How long an answer is replayed: 24 hours (spec section 8). */
  recordTtlMs?: number;
}

export function createIdempotencyStore(options: IdempotencyStoreOptions): IdempotencyStore {
  const claimTtlMs = options.claimTtlMs ?? IDEMPOTENCY_CLAIM_TTL_MS;
  const recordTtlMs = options.recordTtlMs ?? IDEMPOTENCY_RECORD_TTL_MS;
  // The client's key is hashed into the Redis key: any printable characters, fixed length.
  const redisKey = (scope: IdempotencyScope) =>
    `${options.keyPrefix}idem:{${scope.apiKeyId}}:${createHash("sha256").update(scope.idempotencyKey).digest("hex")}`;

  return {
    claimTtlMs,
    async claim(scope, fingerprint) {
      const token = randomUUID();
      const claim: InProgressRecord = { state: "in_progress", token, fingerprint };
      const [claimed, current] = (await CLAIM.run(options.redis, [redisKey(scope)], [JSON.stringify(claim), claimTtlMs])) as [
        number,
        string?,
      ];
      if (claimed === 1) return { claimed: true, token };
      if (current === undefined) throw new Error("idempotency record vanished inside an atomic claim");
      return { claimed: false, existing: JSON.parse(current) as IdempotencyRecord };
    },
    async refresh(scope, token) {
      return (await REFRESH.run(options.redis, [redisKey(scope)], [token, claimTtlMs])) === 1;
    },
    async complete(scope, token, answer) {
      const record: CompletedRecord = { state: "completed", ...answer, recordedAt: new Date().toISOString() };
      return (await COMPLETE.run(options.redis, [redisKey(scope)], [token, JSON.stringify(record), recordTtlMs])) === 1;
    },
    async release(scope, token) {
      await RELEASE.run(options.redis, [redisKey(scope)], [token]);
    },
  };
}
