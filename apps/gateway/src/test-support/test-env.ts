// Test support shared by the auth, rate-limit, idempotency and admin tests: a migrated database,
// Redis connections under a prefix of their own, a minimal error renderer standing in for the
// app's, and real HTTP listeners.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Express, ErrorRequestHandler } from "express";
import { Redis } from "ioredis";
import { AppError, isAppError } from "@dormant/contracts";
import { createTestRedisPrefix } from "@dormant/testing";
import type { TestDatabase } from "@dormant/testing";
import { createGatewayDb } from "../db/client.ts";
import type { GatewayDb } from "../db/client.ts";
import { createGatewayTestDatabase } from "./test-database.ts";
import { createSecretHasher } from "../keys/hash.ts";
import type { SecretHasher } from "../keys/hash.ts";

export const TEST_PEPPER = "test-pepper-0123456789abcdefghijklmnopqrstuvwxyz";

export interface GatewayTestEnv {
  db: GatewayDb;
  databaseUrl: string;
  hasher: SecretHasher;
  /** A Redis key prefix no other test uses (each call gives a new one under the file's prefix). */
  freshPrefix(): string;
  /** A new Redis connection (one per simulated gateway replica), closed by close(). */
  redis(): Redis;
  close(): Promise<void>;
}

export async function createGatewayTestEnv(label: string): Promise<GatewayTestEnv> {
  const database: TestDatabase = await createGatewayTestDatabase(label);
  const testRedis = createTestRedisPrefix(label);
  const db = createGatewayDb(database.url);
  const connections: Redis[] = [];
  let prefixes = 0;
  return {
    db,
    databaseUrl: database.url,
    hasher: createSecretHasher(TEST_PEPPER),
    freshPrefix: () => `${testRedis.prefix}${++prefixes}:`,
    redis() {
      const connection = new Redis(testRedis.url, { maxRetriesPerRequest: 1 });
      connections.push(connection);
      return connection;
    },
    async close() {
      for (const connection of connections) connection.disconnect();
      await testRedis.cleanup();
      await db.$disconnect();
      await database.drop();
    },
  };
}

/** The error envelope of spec section 7, as the app's renderer produces it. */
export function renderErrors(): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const appError = isAppError(error) ? error : new AppError("INTERNAL_ERROR", "Internal error");
    if (appError.retryAfterSeconds) res.setHeader("Retry-After", String(appError.retryAfterSeconds));
    res.status(appError.httpStatus).json({
      success: false,
      error: { code: appError.code, message: appError.message, ...(appError.details ? { details: appError.details } : {}) },
      request_id: randomUUID(),
    });
  };
}

/** Serves `app` on a free local port. */
export async function listen(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Waits for a fresh clock minute (Redis's clock) when fewer than `marginSeconds` are left in the
 * current one, so that a test counting requests in one window is not split across two.
 */
export async function awaitRoomInMinute(redis: Redis, marginSeconds = 3): Promise<void> {
  const [seconds] = await redis.time();
  const left = 60 - (Number(seconds) % 60);
  if (left < marginSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}
