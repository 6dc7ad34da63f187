import { endPoolFully } from "@dormant/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";

/**
 * The notifier database: one node-postgres pool, used directly for the service's statements
 * (intake, leases, attempts: each a few statements whose locking and ON CONFLICT rules are
 * clearer in SQL) and under a Prisma client (the models of prisma/schema.prisma; the schema test
 * proves the hand-written migrations agree with them).
 */
export interface NotifierDb {
  readonly pool: pg.Pool;
  readonly prisma: PrismaClient;
}

export function createNotifierDb(
  connectionString: string,
  options: { max?: number; onConnectionError?: (error: Error) => void } = {},
): NotifierDb {
  // allowExitOnIdle: a pool left open cannot keep the process alive.
  const pool = new pg.Pool({ connectionString, allowExitOnIdle: true, max: options.max ?? 10 });
  const onError = (error: Error) => options.onConnectionError?.(error);
  pool.on("error", onError);
  pool.on("connect", (client) => client.on("error", onError));
  return { pool, prisma: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

/**
 * Disconnects Prisma and ends the pool, waiting (up to 5 s) until its connections are really
 * closed (a database dropped right after would otherwise terminate connections still closing).
 * Safe to call twice.
 */
export async function closeNotifierDb(db: NotifierDb): Promise<void> {
  await db.prisma.$disconnect();
  const { pool } = db;
  await endPoolFully(pool);
}

export type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/** Runs `fn` in one transaction on a connection of the pool (READ COMMITTED). */
export async function inTransaction<T>(db: NotifierDb, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
