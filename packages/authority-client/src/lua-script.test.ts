import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createTestRedisPrefix } from "@dormant/testing";
import { LuaScript } from "@dormant/service-kit";

// service-kit has no Redis client of its own (LuaScript takes any client with eval/evalsha), so
// its LuaScript is tested here, against real Redis, where ioredis is a dependency.
describe("LuaScript (service-kit)", () => {
  const testRedis = createTestRedisPrefix("lua");
  const redis = new Redis(testRedis.url, { maxRetriesPerRequest: 1 });
  afterAll(async () => {
    await testRedis.cleanup();
    redis.disconnect();
  });

  it("loads itself on a server that has not seen it, then runs by SHA", async () => {
    // A unique source: this server cannot have it cached yet, so the first run takes the EVAL path.
    const script = new LuaScript(`-- ${randomUUID()}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`);
    const key = `${testRedis.prefix}counter`;
    expect(await script.run(redis, [key], [2])).toBe(2);
    expect(await script.run(redis, [key], [3])).toBe(5);
  });

  it("passes other script errors through", async () => {
    const script = new LuaScript(`return redis.call('NO_SUCH_COMMAND')`);
    await expect(script.run(redis, [], [])).rejects.toThrow(/unknown command|Unknown Redis command/i);
  });
});
