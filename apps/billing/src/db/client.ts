import { endPoolFully } from "@dormant/service-kit";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";

export type BillingDb = PrismaClient;

/** The node-postgres pool under each client createBillingDb made (Prisma and the hot path share it). */
const pools = new WeakMap<BillingDb, pg.Pool>();

/**
 * A Prisma client for the billing database over a node-postgres pool (close it with
 * `closeBillingDb`). The same pool also runs the hot path's single statements directly (`sqlPool`):
 * the fee hold, the release and filing outcomes are one call of a SQL function each (README
 * "Statements per operation"), and going through Prisma's query interpreter for them would cost
 * more CPU than the statement itself.
 */
export function createBillingDb(connectionString: string, options: { onConnectionError?: (error: Error) => void } = {}): BillingDb {
  // allowExitOnIdle: a client disconnected with $disconnect alone cannot keep the process alive.
  const pool = new pg.Pool({ connectionString, allowExitOnIdle: true });
  // A connection the server drops (restart, terminated backend) fails its statement, if it runs
  // one, and the pool replaces it; the error events themselves must not crash the process.
  const onError = (error: Error) => options.onConnectionError?.(error);
  pool.on("error", onError);
  pool.on("connect", (client) => client.on("error", onError));
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  pools.set(db, pool);
  return db;
}

/** The pool under a client from createBillingDb, for single statements that bypass Prisma. */
export function sqlPool(db: BillingDb): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error("this billing database client was not made by createBillingDb");
  return pool;
}

/**
 * Disconnects Prisma and ends the pool under it, waiting (up to 5 s) until its connections are
 * really closed: pool.end() resolves earlier, and a database dropped right after would otherwise
 * terminate connections still closing. Safe to call twice.
 */
export async function closeBillingDb(db: BillingDb): Promise<void> {
  await db.$disconnect();
  const pool = pools.get(db);
  if (!pool) return;
  await endPoolFully(pool);
}

/** The client inside an interactive transaction. */
export type BillingTx = Prisma.TransactionClient;

/**
 * Runs `fn` in one transaction (READ COMMITTED; every money move locks the account row first,
 * see ledger/lock.ts). Waits up to 5 s for a connection and lets the work take up to 10 s.
 */
export function inTransaction<T>(db: BillingDb, fn: (tx: BillingTx) => Promise<T>): Promise<T> {
  return db.$transaction(fn, { maxWait: 5_000, timeout: 10_000 });
}
