import { randomUUID } from "node:crypto";
import { envPositiveInt, LuaScript } from "@dormant/service-kit";
import type { Redis } from "ioredis";
import { Counter, Histogram, type Registry } from "prom-client";
import { AuthorityUnavailableError } from "./errors.ts";

/** The limits toward one authority, shared by every replica of every worker that calls it. */
export interface AuthorityLimitSettings {
  /** Requests to the authority in flight at once, across all replicas. */
  maxConcurrent: number;
  /** Requests started in any window of one second, across all replicas. */
  maxPerSecond: number;
}

/** The environment variables of the limits (the same names in both workers: each calls one authority). */
export const authorityLimitsEnvShape = {
  AUTHORITY_MAX_CONCURRENT: envPositiveInt(64),
  AUTHORITY_MAX_PER_SECOND: envPositiveInt(100),
};

export function authorityLimitsFromEnv(env: {
  AUTHORITY_MAX_CONCURRENT: number;
  AUTHORITY_MAX_PER_SECOND: number;
}): AuthorityLimitSettings {
  return { maxConcurrent: env.AUTHORITY_MAX_CONCURRENT, maxPerSecond: env.AUTHORITY_MAX_PER_SECOND };
}

/**
 * How long a request start counts against the rate: one second plus a margin, so that the few
 * milliseconds between a replica's grant and its request reaching the authority (which differ
 * from request to request) cannot put more than `maxPerSecond` into any second the authority sees.
 */
export const RATE_WINDOW_MS = 1_050;

/**
 * Takes a slot: KEYS[1] the leases in flight (sorted set, score = expiry), KEYS[2] the starts of
 * the last window (sorted set, score = start). Time is the server's, the same for every replica.
 * ARGV: lease id, max concurrent, max per window, lease ms, window ms.
 * Returns 0 (granted), -1 (every slot taken: wait for a release) or the ms until the oldest start
 * leaves the window (the rate is used up).
 */
const ACQUIRE = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now + 1)
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('PEXPIRE', KEYS[2], window * 2)
return 0
`);

/** Metrics of the limits (one set per registry, labelled by authority). */
export interface AuthorityLimitMetrics {
  wait: Histogram<"authority" | "result">;
  refused: Counter<"authority" | "cause">;
}

export function createAuthorityLimitMetrics(registry: Registry): AuthorityLimitMetrics {
  return {
    wait: new Histogram({
      name: "authority_limit_wait_seconds",
      help: "Time a request waited for a slot under the shared limits toward its authority, by result (granted, refused)",
      labelNames: ["authority", "result"] as const,
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
      registers: [registry],
    }),
    refused: new Counter({
      name: "authority_limit_refused_total",
      help: "Requests not sent because no slot under the shared limits came in time, by cause (deadline, aborted, redis_unavailable)",
      labelNames: ["authority", "cause"] as const,
      registers: [registry],
    }),
  };
}

/** A slot taken: release it when the request is over (answered, failed or aborted). */
export interface AuthorityLease {
  release(): void;
}

export interface AcquireOptions {
  /** The caller's own signal: aborting it stops the wait. */
  signal?: AbortSignal | undefined;
  /** The longest wait for a slot. */
  maxWaitMs: number;
}

export interface AuthorityLimiterOptions {
  redis: Redis;
  /** Prefix of the limits' keys, e.g. `dormant:authority:tax:` (shared by every replica). */
  keyPrefix: string;
  /** Names the authority in metrics and errors ("tax", "registry"). */
  authority: string;
  settings: AuthorityLimitSettings;
  /** How long a slot is held if its replica dies without releasing it (the requests' timeout plus a margin). */
  leaseMs: number;
  metrics: AuthorityLimitMetrics;
}

/** The first and the longest wait between two tries for a slot held by someone else. */
const FIRST_RETRY_MS = 10;
const LONGEST_RETRY_MS = 200;

/**
 * The limits toward one authority, in Redis, shared by all replicas: at most `maxConcurrent`
 * requests in flight and `maxPerSecond` started per second. A slot is a lease with an expiry
 * (`leaseMs`), so a replica that dies holding slots gives them back when its leases expire.
 *
 * `acquire` waits for a slot until `maxWaitMs` or the caller's signal: it tries again when this
 * process releases a slot, when the rate window lets a start out (Redis says when), or else
 * after a backoff from 10 to 200 ms with jitter, so waiting never hot-loops Redis. No slot in
 * time, or Redis unavailable: AuthorityUnavailableError("throttled"), not sent. The limits fail
 * closed: without Redis nothing is sent (docs/operations/authority-limits.md).
 */
export class AuthorityLimiter {
  private readonly replica = randomUUID();
  private sequence = 0;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly options: AuthorityLimiterOptions) {}

  get authority(): string {
    return this.options.authority;
  }

  async acquire(acquire: AcquireOptions): Promise<AuthorityLease> {
    const { redis, keyPrefix, settings, leaseMs, metrics, authority } = this.options;
    const started = performance.now();
    const deadline = started + acquire.maxWaitMs;
    const id = `${this.replica}:${++this.sequence}`;
    const keys = [`${keyPrefix}leases`, `${keyPrefix}starts`];
    const args = [id, settings.maxConcurrent, settings.maxPerSecond, leaseMs, RATE_WINDOW_MS];
    let backoffMs = FIRST_RETRY_MS;
    for (;;) {
      if (acquire.signal?.aborted) throw this.refuse("aborted", started, "the caller stopped waiting for a slot");
      let answer: number;
      try {
        answer = Number(await ACQUIRE.run(redis, keys, args));
      } catch (error) {
        throw this.refuse("redis_unavailable", started, "the shared limits cannot be read (Redis)", error);
      }
      if (answer === 0) {
        metrics.wait.observe({ authority, result: "granted" }, (performance.now() - started) / 1000);
        let released = false;
        return {
          release: () => {
            if (released) return;
            released = true;
            redis.zrem(keys[0]!, id).then(
              () => this.wakeWaiters(),
              // Unreleased, the lease expires after leaseMs.
              () => this.wakeWaiters(),
            );
          },
        };
      }
      let waitMs: number;
      if (answer > 0) {
        waitMs = answer;
      } else {
        waitMs = backoffMs + Math.random() * backoffMs;
        backoffMs = Math.min(LONGEST_RETRY_MS, backoffMs * 2);
      }
      const left = deadline - performance.now();
      if (left <= 0) throw this.refuse("deadline", started, `no slot within ${acquire.maxWaitMs} ms`);
      await this.pause(Math.min(waitMs, left), acquire.signal, answer < 0);
    }
  }

  private refuse(cause: "deadline" | "aborted" | "redis_unavailable", started: number, why: string, error?: unknown) {
    const { metrics, authority, settings } = this.options;
    metrics.wait.observe({ authority, result: "refused" }, (performance.now() - started) / 1000);
    metrics.refused.inc({ authority, cause });
    return new AuthorityUnavailableError(
      "throttled",
      `${authority}: not sent, ${why} (limits: ${settings.maxConcurrent} at once, ${settings.maxPerSecond} per second)`,
      { maybeReceived: false, retryAfterSeconds: 1, cause: error },
    );
  }

  /** Waits `ms`, or less: the signal aborts, or (waiting for a release) this process releases a slot. */
  private pause(ms: number, signal: AbortSignal | undefined, wakeOnRelease: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      if (wakeOnRelease) this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }
}
