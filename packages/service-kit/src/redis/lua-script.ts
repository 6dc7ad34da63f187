import { createHash } from "node:crypto";

/**
 * What a LuaScript needs of a Redis client (ioredis's `Redis` has both), so that this package
 * does not depend on a Redis library.
 */
export interface LuaScriptRedis {
  evalsha(sha: string, numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
  eval(source: string, numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<unknown>;
}

/**
 * A Lua script run atomically by Redis: EVALSHA, falling back to EVAL (which also loads it) the
 * first time a server has not seen it, e.g. after a restart.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(redis: LuaScriptRedis, keys: string[], args: Array<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
      return await redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
