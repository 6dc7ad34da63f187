export { testInfra, uniqueSuffix, safeLabel } from "./infra-urls.ts";
export { createTestDatabase, dropLeftoverTestDatabases } from "./postgres.ts";
export type { TestDatabase, TestDatabaseOptions } from "./postgres.ts";
export { createTestRedisPrefix } from "./redis.ts";
export type { TestRedis } from "./redis.ts";
export { createTestVhost, deleteLeftoverTestVhosts } from "./rabbitmq.ts";
export type { TestVhost } from "./rabbitmq.ts";
export { waitFor, getFreePort } from "./wait.ts";
export { rejectionOf } from "./rejection.ts";
