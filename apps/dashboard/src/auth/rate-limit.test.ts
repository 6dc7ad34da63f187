import { createTestRedisPrefix, type TestRedis } from "@dormant/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignInRateLimiter, SignUpRateLimiter } from "./rate-limit.ts";

describe("sign-in attempts per email and per address (real Redis)", () => {
  let scope: TestRedis;
  let redis: Redis;
  let limiter: SignInRateLimiter;
  beforeAll(() => {
    scope = createTestRedisPrefix("dash_rate_limit");
    redis = new Redis(scope.url, { maxRetriesPerRequest: 1 });
    limiter = new SignInRateLimiter(redis, { prefix: scope.prefix, windowSeconds: 900, perEmail: 3, perAddress: 5 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await scope?.cleanup();
  });

  it("refuses the attempt over the email's limit, with the rest of the window as the wait", async () => {
    for (let i = 0; i < 3; i++) await expect(limiter.attempt("a@example.com", "10.0.0.1")).resolves.toEqual({ allowed: true });
    const refused = await limiter.attempt("a@example.com", "10.0.0.2");
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(890);
    // More attempts never extend the window.
    const ttlBefore = await redis.ttl((await redis.keys(`${scope.prefix}signin:email:*`))[0]!);
    await limiter.attempt("a@example.com", "10.0.0.2");
    const ttlAfter = await redis.ttl((await redis.keys(`${scope.prefix}signin:email:*`))[0]!);
    expect(ttlAfter).toBeLessThanOrEqual(ttlBefore);
  });

  it("refuses the attempt over the address's limit whatever the email, and keeps no email or address in clear", async () => {
    for (let i = 0; i < 5; i++) await expect(limiter.attempt(`u${i}@example.com`, "10.9.9.9")).resolves.toEqual({ allowed: true });
    expect((await limiter.attempt("u9@example.com", "10.9.9.9")).allowed).toBe(false);
    const keys = await redis.keys(`${scope.prefix}*`);
    expect(keys.join(" ")).not.toMatch(/example\.com|10\.9\.9\.9/);
  });

  it("clears the email's count and gives the address its attempt back on success", async () => {
    for (let i = 0; i < 3; i++) await limiter.attempt("b@example.com", "10.1.1.1");
    await limiter.succeeded("b@example.com", "10.1.1.1");
    await expect(limiter.attempt("b@example.com", "10.1.1.1")).resolves.toEqual({ allowed: true });
  });

  it("counts parallel attempts atomically: exactly the limit gets through", async () => {
    const verdicts = await Promise.all(Array.from({ length: 10 }, () => limiter.attempt("c@example.com", "10.2.2.2")));
    expect(verdicts.filter((verdict) => verdict.allowed)).toHaveLength(3);
  });

  it("limits sign-ups per address in their own window, and gives a failed sign-up's count back", async () => {
    const signUps = new SignUpRateLimiter(redis, { prefix: scope.prefix, windowSeconds: 3600, perAddress: 2 });
    await expect(signUps.attempt("10.3.3.3")).resolves.toEqual({ allowed: true });
    await expect(signUps.attempt("10.3.3.3")).resolves.toEqual({ allowed: true });
    const refused = await signUps.attempt("10.3.3.3");
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(3590);
    await expect(signUps.attempt("10.3.3.4")).resolves.toEqual({ allowed: true });
    await signUps.failed("10.3.3.4");
    await expect(signUps.attempt("10.3.3.4")).resolves.toEqual({ allowed: true });
    await expect(signUps.attempt("10.3.3.4")).resolves.toEqual({ allowed: true });
    // Sign-in attempts from the same address are counted apart.
    await expect(limiter.attempt("d@example.com", "10.3.3.3")).resolves.toEqual({ allowed: true });
  });
});
