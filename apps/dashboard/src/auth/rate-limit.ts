import { LuaScript } from "@dormant/service-kit";
import type { Redis } from "ioredis";
import { hashToken } from "./tokens.ts";

/**
 * Fixed-window counters in Redis, one per key, counted atomically (one Lua script for every key
 * of an attempt, so parallel attempts cannot slip past). A window starts at the first counted
 * attempt and is never extended by later ones: whoever is refused waits at most the rest of one
 * window. Keys are hashed, so Redis holds no email or address in clear.
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

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One counter of an attempt: what it counts (e.g. "signin:email") and whose (hashed), and its limit per window. */
export interface CounterLimit {
  kind: string;
  subject: string;
  max: number;
}

/** The shared mechanism of the sign-in and sign-up limits. */
export class FixedWindowCounters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowSeconds: number,
  ) {}

  key(kind: string, subject: string): string {
    return `${this.prefix}${kind}:${hashToken(subject)}`;
  }

  /** Counts one attempt on every counter; refused when any count went over its limit (with the longest wait until its window ends). */
  async attempt(counters: readonly CounterLimit[]): Promise<AttemptVerdict> {
    const keys = counters.map((counter) => this.key(counter.kind, counter.subject));
    const result = (await COUNT_ATTEMPT.run(this.redis, keys, [this.windowSeconds])) as number[];
    const waits: number[] = [];
    counters.forEach((counter, index) => {
      const count = result[index * 2] ?? 0;
      const ttl = result[index * 2 + 1] ?? 0;
      if (count > counter.max) waits.push(ttl);
    });
    return waits.length === 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, ...waits) };
  }

  /** Gives one attempt back to a counter (it stays within its window). */
  async giveBack(kind: string, subject: string): Promise<void> {
    await this.redis.decr(this.key(kind, subject));
  }
}

export interface SignInLimits {
  prefix: string;
  windowSeconds: number;
  perEmail: number;
  perAddress: number;
}

/**
 * Sign-in attempts per email and per client address. Every attempt is counted before the
 * password is checked, and an attempt over either limit is refused without checking the
 * password, even a correct one (otherwise guessing could go on). A successful sign-in clears its
 * email's count and gives its attempt back to the address, so only failures accumulate. A valid
 * user locked out by someone else's guesses waits at most one window (15 minutes by default).
 */
export class SignInRateLimiter {
  private readonly counters: FixedWindowCounters;

  constructor(
    private readonly redis: Redis,
    private readonly limits: SignInLimits,
  ) {
    this.counters = new FixedWindowCounters(redis, limits.prefix, limits.windowSeconds);
  }

  /** Counts one attempt; refused when either count went over its limit (with the wait until its window ends). */
  attempt(email: string, address: string): Promise<AttemptVerdict> {
    return this.counters.attempt([
      { kind: "signin:email", subject: email, max: this.limits.perEmail },
      { kind: "signin:addr", subject: address, max: this.limits.perAddress },
    ]);
  }

  /**
   * One submit of the set-password form (a one-time link) from `address`: its own counter, in the
   * sign-in window with the per-address limit. Counted before the token is looked up, so neither
   * guessing tokens nor a valid link posted over and over (each costs a password hash) goes on.
   */
  passwordSetupAttempt(address: string): Promise<AttemptVerdict> {
    return this.counters.attempt([{ kind: "setup:addr", subject: address, max: this.limits.perAddress }]);
  }

  /** After a successful sign-in: the email starts afresh and the address gets its attempt back. */
  async succeeded(email: string, address: string): Promise<void> {
    await this.redis.multi().del(this.counters.key("signin:email", email)).decr(this.counters.key("signin:addr", address)).exec();
  }
}

export interface SignUpLimits {
  prefix: string;
  windowSeconds: number;
  perAddress: number;
}

/**
 * New accounts per client address (each sign-up opens a platform account): counted when a valid
 * form is about to open one, in a fixed window (1 hour by default); over the limit the sign-up is
 * refused with nothing created. A sign-up that fails after counting (the gateway not answering)
 * gives its attempt back.
 */
export class SignUpRateLimiter {
  private readonly counters: FixedWindowCounters;

  constructor(
    redis: Redis,
    private readonly limits: SignUpLimits,
  ) {
    this.counters = new FixedWindowCounters(redis, limits.prefix, limits.windowSeconds);
  }

  attempt(address: string): Promise<AttemptVerdict> {
    return this.counters.attempt([{ kind: "signup:addr", subject: address, max: this.limits.perAddress }]);
  }

  /** The sign-up did not open an account: the address gets its attempt back. */
  failed(address: string): Promise<void> {
    return this.counters.giveBack("signup:addr", address);
  }
}
