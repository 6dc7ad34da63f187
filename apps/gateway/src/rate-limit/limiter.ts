import type { Redis } from "ioredis";
import { LuaScript } from "@dormant/service-kit";
import type { RateLimits } from "./limits.ts";

export interface RateLimitDecision {
  allowed: boolean;
  limits: RateLimits;
  remainingMinute: number;
  remainingDay: number;
  /** Whole seconds until the exhausted window(s) reset; 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimitSubject {
  subject: string;
  limits: RateLimits;
}

export interface RateLimiter {
  /** Counts one request against `subject` if both windows have room; rejected requests are not counted. */
  consume(subject: string, limits: RateLimits): Promise<RateLimitDecision>;
  /**
   * Counts one request against every subject at once (a key and its account) if every window of
   * every subject has room, else counts nothing: one decision per subject, in order.
   */
  consumeAll(subjects: readonly RateLimitSubject[]): Promise<RateLimitDecision[]>;
  /** The same answer without counting anything. */
  peek(subject: string, limits: RateLimits): Promise<RateLimitDecision>;
}

// Fixed windows: the clock minute and the UTC day, both read from the Redis server's clock so
// that every gateway replica agrees on the window. Each counter expires at its window's end, so
// a missing key is an empty window. The check and every increment run as one script: with any
// number of replicas sharing Redis, exactly `limit` requests get through per window and subject,
// and a request refused by one subject (the account) is counted by none (its key).
// The script runs on every request, so it does no more than it must: the clock is read only to
// set a window's expiry (on its first request, or on a counter found without one), and the
// counters' remaining lives only for a refusal (Retry-After); an allowed request returns 0 0.
// KEYS: minute and day counter of each subject; ARGV: per-minute and per-day limit of each, then
// the count flag. Reply: allowed, then minute, day, minute TTL, day TTL of each subject.
const SCRIPT = new LuaScript(`
local n = #KEYS / 2
local count = ARGV[#ARGV] == '1'
local allowed = 1
local used = {}
for i = 1, n do
  local minute = tonumber(redis.call('GET', KEYS[2 * i - 1]) or '0')
  local day = tonumber(redis.call('GET', KEYS[2 * i]) or '0')
  used[i] = {minute, day}
  if minute >= tonumber(ARGV[2 * i - 1]) or day >= tonumber(ARGV[2 * i]) then allowed = 0 end
end
local reply = {allowed}
local now = nil
local function expireAt(key, window)
  if redis.call('PTTL', key) < 0 then
    if now == nil then
      local t = redis.call('TIME')
      now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    redis.call('PEXPIREAT', key, now - now % window + window)
  end
end
for i = 1, n do
  local minute, day = used[i][1], used[i][2]
  if allowed == 1 then
    if count then
      minute = redis.call('INCR', KEYS[2 * i - 1])
      expireAt(KEYS[2 * i - 1], 60000)
      day = redis.call('INCR', KEYS[2 * i])
      expireAt(KEYS[2 * i], 86400000)
    end
    table.insert(reply, minute); table.insert(reply, day); table.insert(reply, 0); table.insert(reply, 0)
  else
    table.insert(reply, minute); table.insert(reply, day)
    table.insert(reply, redis.call('PTTL', KEYS[2 * i - 1])); table.insert(reply, redis.call('PTTL', KEYS[2 * i]))
  end
end
return reply
`);

function secondsUntil(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs / 1000));
}

export function createRateLimiter(options: { redis: Redis; keyPrefix: string }): RateLimiter {
  async function run(subjects: readonly RateLimitSubject[], count: boolean): Promise<RateLimitDecision[]> {
    // The hash tag keeps both counters of a subject in one slot should Redis ever be a cluster
    // (subjects of one request may then sit in different slots: a cluster would need one tag).
    const keys = subjects.flatMap(({ subject }) => [
      `${options.keyPrefix}rl:{${subject}}:minute`,
      `${options.keyPrefix}rl:{${subject}}:day`,
    ]);
    const args = [...subjects.flatMap(({ limits }) => [limits.perMinute, limits.perDay]), count ? 1 : 0];
    const reply = (await SCRIPT.run(options.redis, keys, args)) as number[];
    const allowed = reply[0] === 1;
    return subjects.map(({ limits }, index) => {
      const [minute, day, minuteTtl, dayTtl] = reply.slice(1 + 4 * index, 5 + 4 * index) as [number, number, number, number];
      const minuteFull = minute >= limits.perMinute;
      const dayFull = day >= limits.perDay;
      return {
        allowed,
        limits,
        remainingMinute: Math.max(0, limits.perMinute - minute),
        remainingDay: Math.max(0, limits.perDay - day),
        retryAfterSeconds: allowed ? 0 : Math.max(minuteFull ? secondsUntil(minuteTtl) : 0, dayFull ? secondsUntil(dayTtl) : 0),
      };
    });
  }
  const one = async (subject: string, limits: RateLimits, count: boolean) => (await run([{ subject, limits }], count))[0]!;
  return {
    consume: (subject, limits) => one(subject, limits, true),
    consumeAll: (subjects) => run(subjects, true),
    peek: (subject, limits) => one(subject, limits, false),
  };
}
