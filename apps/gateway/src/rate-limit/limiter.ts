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

export interface RateLimiter {
  /** Counts one request against `subject` if both windows have room; rejected requests are not counted. */
  consume(subject: string, limits: RateLimits): Promise<RateLimitDecision>;
  /** The same answer without counting anything. */
  peek(subject: string, limits: RateLimits): Promise<RateLimitDecision>;
}

// Fixed windows: the clock minute and the UTC day, both read from the Redis server's clock so
// that every gateway replica agrees on the window. Each counter expires at its window's end, so
// a missing key is an empty window. The check and both increments run as one script: with any
// number of replicas sharing Redis, exactly `limit` requests get through per window.
// The script runs on every request, so it does no more than it must: the clock is read only to
// set a window's expiry (on its first request, or on a counter found without one), and the
// counters' remaining lives only for a refusal (Retry-After); an allowed request returns 0 0.
const SCRIPT = new LuaScript(`
local perMinute = tonumber(ARGV[1])
local perDay = tonumber(ARGV[2])
local minute = tonumber(redis.call('GET', KEYS[1]) or '0')
local day = tonumber(redis.call('GET', KEYS[2]) or '0')
if minute < perMinute and day < perDay then
  if ARGV[3] == '1' then
    local now = nil
    minute = redis.call('INCR', KEYS[1])
    if redis.call('PTTL', KEYS[1]) < 0 then
      local t = redis.call('TIME')
      now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      redis.call('PEXPIREAT', KEYS[1], now - now % 60000 + 60000)
    end
    day = redis.call('INCR', KEYS[2])
    if redis.call('PTTL', KEYS[2]) < 0 then
      if now == nil then
        local t = redis.call('TIME')
        now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      end
      redis.call('PEXPIREAT', KEYS[2], now - now % 86400000 + 86400000)
    end
  end
  return {1, minute, day, 0, 0}
end
return {0, minute, day, redis.call('PTTL', KEYS[1]), redis.call('PTTL', KEYS[2])}
`);

function secondsUntil(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs / 1000));
}

export function createRateLimiter(options: { redis: Redis; keyPrefix: string }): RateLimiter {
  async function run(subject: string, limits: RateLimits, count: boolean): Promise<RateLimitDecision> {
    // The hash tag keeps both counters of a subject in one slot should Redis ever be a cluster.
    const base = `${options.keyPrefix}rl:{${subject}}`;
    const reply = (await SCRIPT.run(
      options.redis,
      [`${base}:minute`, `${base}:day`],
      [limits.perMinute, limits.perDay, count ? 1 : 0],
    )) as number[];
    const [allowed, minute, day, minuteTtl, dayTtl] = reply as [number, number, number, number, number];
    const minuteFull = minute >= limits.perMinute;
    const dayFull = day >= limits.perDay;
    return {
      allowed: allowed === 1,
      limits,
      remainingMinute: Math.max(0, limits.perMinute - minute),
      remainingDay: Math.max(0, limits.perDay - day),
      retryAfterSeconds: allowed === 1 ? 0 : Math.max(minuteFull ? secondsUntil(minuteTtl) : 0, dayFull ? secondsUntil(dayTtl) : 0),
    };
  }
  return {
    consume: (subject, limits) => run(subject, limits, true),
    peek: (subject, limits) => run(subject, limits, false),
  };
}
