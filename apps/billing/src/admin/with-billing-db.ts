import { closeBillingDb, createBillingDb, type BillingDb } from "../db/client.ts";
import { migrateBillingDatabase } from "../db/migrations.ts";

/**
 * Runs `fn` with a client of the billing database at `databaseUrl`, creating and migrating the
 * database first (so operator commands work before the service ever started), and disconnects.
 */
export async function withBillingDb<T>(databaseUrl: string, fn: (db: BillingDb) => Promise<T>): Promise<T> {
  await migrateBillingDatabase(databaseUrl);
  const db = createBillingDb(databaseUrl);
  try {
    return await fn(db);
  } finally {
    await closeBillingDb(db);
  }
}
