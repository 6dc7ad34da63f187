import { Redis } from "ioredis";
import { safeLabel, testInfra, uniqueSuffix } from "./infra-urls.ts";

export interface TestRedis {
  /** Every key a test writes must start with this prefix. */
  prefix: string;
  url: string;
  /** Deletes every key under the prefix. */
  cleanup(): Promise<void>;
}

/** A key prefix of its own for one test file, and a way to delete what it wrote. */
export function createTestRedisPrefix(label: string): TestRedis {
  const prefix = `test:${safeLabel(label)}:${uniqueSuffix()}:`;
  return {
    prefix,
    url: testInfra.redisUrl,
    cleanup: async () => {
      const client = new Redis(testInfra.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      try {
        let cursor = "0";
        do {
          const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
          cursor = next;
          if (keys.length > 0) await client.del(...keys);
        } while (cursor !== "0");
      } finally {
        client.disconnect();
      }
    },
  };
}
