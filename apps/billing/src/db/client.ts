import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";

export type BillingDb = PrismaClient;

/** A Prisma client for the billing database over node-postgres (call `$disconnect()` when done). */
export function createBillingDb(connectionString: string): BillingDb {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString }) });
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
