import { createTestRedisPrefix } from "@dormant/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { awaitRoomInMinute } from "../test-support/test-env.ts";
import { createRateLimiter } from "./limiter.ts";

describe("rate limiter (the Redis script)", () => {
  const scope = createTestRedisPrefix("limiter");
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(scope.url, { maxRetriesPerRequest: 1 });
  });
  // Each test counts within one clock minute.
  beforeEach(() => awaitRoomInMinute(redis));
  afterAll(async () => {
    redis?.disconnect();
    await scope.cleanup();
  });

  const keys = (subject: string) => [`${scope.prefix}rl:{${subject}}:minute`, `${scope.prefix}rl:{${subject}}:day`] as const;
  /** Milliseconds to the end of the current clock minute and UTC day, by the Redis server's clock. */
  async function windowEnds(): Promise<[number, number]> {
    const [seconds, micros] = await redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    return [60_000 - (now % 60_000), 86_400_000 - (now % 86_400_000)];
  }

  it("counts in both windows, each counter expiring at the end of its window", async () => {
    const limiter = createRateLimiter({ redis, keyPrefix: scope.prefix });
    const limits = { perMinute: 5, perDay: 7 };
    const first = await limiter.consume("key:a", limits);
    expect(first).toEqual({ allowed: true, limits, remainingMinute: 4, remainingDay: 6, retryAfterSeconds: 0 });
    const [minuteKey, dayKey] = keys("key:a");
    const [minuteEnd, dayEnd] = await windowEnds();
    const [minuteTtl, dayTtl] = [await redis.pttl(minuteKey), await redis.pttl(dayKey)];
    expect(minuteTtl).toBeGreaterThan(0);
    expect(Math.abs(minuteTtl - minuteEnd)).toBeLessThan(1000);
    expect(dayTtl).toBeGreaterThan(0);
    expect(Math.abs(dayTtl - dayEnd)).toBeLessThan(1000);
    expect(await redis.mget(minuteKey, dayKey)).toEqual(["1", "1"]);
  });

  it("gives a counter found without an expiry one again, and refuses with Retry-After once a window is full", async () => {
    const limiter = createRateLimiter({ redis, keyPrefix: scope.prefix });
    const limits = { perMinute: 3, perDay: 100 };
    const [minuteKey, dayKey] = keys("key:b");
    await redis.set(minuteKey, "1");
    await redis.set(dayKey, "1");
    expect(await limiter.consume("key:b", limits)).toMatchObject({ allowed: true, remainingMinute: 1, remainingDay: 98 });
    expect(await redis.pttl(minuteKey)).toBeGreaterThan(0);
    expect(await redis.pttl(dayKey)).toBeGreaterThan(0);

    await limiter.consume("key:b", limits);
    const refused = await limiter.consume("key:b", limits);
    const [minuteEnd] = await windowEnds();
    expect(refused).toMatchObject({ allowed: false, remainingMinute: 0, remainingDay: 97 });
    expect(Math.abs(refused.retryAfterSeconds - Math.ceil(minuteEnd / 1000))).toBeLessThanOrEqual(1);
    // Refused requests are not counted.
    expect(await redis.mget(minuteKey, dayKey)).toEqual(["3", "3"]);
  });

  it("peeks without counting or creating anything", async () => {
    const limiter = createRateLimiter({ redis, keyPrefix: scope.prefix });
    const limits = { perMinute: 2, perDay: 2 };
    expect(await limiter.peek("key:c", limits)).toEqual({
      allowed: true,
      limits,
      remainingMinute: 2,
      remainingDay: 2,
      retryAfterSeconds: 0,
    });
    expect(await redis.exists(...keys("key:c"))).toBe(0);
    await limiter.consume("key:c", limits);
    await limiter.consume("key:c", limits);
    const peeked = await limiter.peek("key:c", limits);
    expect(peeked).toMatchObject({ allowed: false, remainingMinute: 0, remainingDay: 0 });
    expect(peeked.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await redis.mget(...keys("key:c"))).toEqual(["2", "2"]);
  });
  it("counts a key and its account together, and neither when one of them is full", async () => {
    const limiter = createRateLimiter({ redis, keyPrefix: scope.prefix });
    const limits = { perMinute: 2, perDay: 10 };
    const both = (key: string) =>
      limiter.consumeAll([
        { subject: key, limits },
        { subject: "account:d", limits },
      ]);
    expect((await both("key:d1")).map((d) => d.allowed)).toEqual([true, true]);
    const [second] = await both("key:d2");
    expect(second).toMatchObject({ allowed: true, remainingMinute: 1 });
    const [key, account] = await both("key:d3");
    expect(key).toMatchObject({ allowed: false, remainingMinute: 2, retryAfterSeconds: 0 });
    expect(account).toMatchObject({ allowed: false, remainingMinute: 0 });
    expect(account!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Refused: the key's counters were not created, the account's stay at its limit.
    expect(await redis.exists(...keys("key:d3"))).toBe(0);
    expect(await redis.mget(...keys("account:d"))).toEqual(["2", "2"]);
  });
});
