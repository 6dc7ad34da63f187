import { LuaScript } from "@dormant/service-kit";
import type { Redis } from "ioredis";
import { hashToken } from "./tokens.ts";

/**
 * Sign-in attempts per email and per client address, in fixed windows in Redis. Every attempt is
 * counted before the password is checked (atomically, so parallel guesses cannot slip past), and
 * an attempt over either limit is refused without checking the password, even a correct one
 * (otherwise guessing could go on). A successful sign-in clears its email's count and gives its
 * attempt back to the address, so only failures accumulate. A valid user locked out by someone
 * else's guesses waits at most one window (15 minutes by default): the window starts at the first
 * counted attempt and is never extended by later ones.
 */
const COUNT_ATTEMPT = new LuaScript(`
local results = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('EXPIRE', key, ARGV[1]) end
  local ttl = redis.call('TTL', key)
  if ttl < 0 then redis.call('EXPIRE', key, ARGV[1]); ttl = tonumber(ARGV[1]) end
  results[#results + 1] = count
  results[#results + 1] = ttl
end
return results
`);

export interface SignInLimits {
  prefix: string;
  windowSeconds: number;
  perEmail: number;
  perAddress: number;
}

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class SignInRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly limits: SignInLimits,
  ) {}

  private keys(email: string, address: string): [string, string] {
    // Hashed: Redis keys carry no email or address in clear.
    return [`${this.limits.prefix}signin:email:${hashToken(email)}`, `${this.limits.prefix}signin:addr:${hashToken(address)}`];
  }

  /** Counts one attempt; refused when either count went over its limit (with the wait until its window ends). */
  async attempt(email: string, address: string): Promise<AttemptVerdict> {
    const result = (await COUNT_ATTEMPT.run(this.redis, this.keys(email, address), [this.limits.windowSeconds])) as number[];
    const [emailCount = 0, emailTtl = 0, addressCount = 0, addressTtl = 0] = result;
    const waits: number[] = [];
    if (emailCount > this.limits.perEmail) waits.push(emailTtl);
    if (addressCount > this.limits.perAddress) waits.push(addressTtl);
    return waits.length === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, ...waits) };
  }

  /** After a successful sign-in: the email starts afresh and the address gets its attempt back. */
  async succeeded(email: string, address: string): Promise<void> {
    const [emailKey, addressKey] = this.keys(email, address);
    await this.redis.multi().del(emailKey).decr(addressKey).exec();
  }
}
