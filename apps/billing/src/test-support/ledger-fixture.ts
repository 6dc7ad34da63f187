import { afterAll, beforeAll } from "vitest";
import type { TestDatabase } from "@dormant/testing";
import { closeBillingDb, createBillingDb, type BillingDb } from "../db/client.ts";
import { createBillingTestDatabase } from "./test-database.ts";
import { openAccount } from "../ledger/accounts.ts";
import { getBalance } from "../ledger/balance.ts";

export interface LedgerFixture {
  readonly db: BillingDb;
  readonly url: string;
  /** Opens a fresh account (unique id) with this opening balance in pence. */
  account(openingBalancePence: bigint, label?: string): Promise<string>;
  /** balance / held / available of an account, in pence. */
  totals(accountId: string): Promise<{ balance: bigint; held: bigint; available: bigint }>;
}

let counter = 0;

/** Test support: a migrated billing database of the test file's own, dropped at the end. */
export function useLedgerDatabase(label: string): LedgerFixture {
  let database: TestDatabase;
  let db: BillingDb;
  beforeAll(async () => {
    database = await createBillingTestDatabase(label);
    db = createBillingDb(database.url);
  });
  afterAll(async () => {
    if (db) await closeBillingDb(db);
    await database?.drop();
  });
  return {
    get db() {
      return db;
    },
    get url() {
      return database.url;
    },
    async account(openingBalancePence, name = "acct") {
      counter += 1;
      const accountId = `acc_${name}${counter}${Math.random().toString(36).slice(2, 8)}`;
      await openAccount(db, { accountId, openingBalancePence });
      return accountId;
    },
    async totals(accountId) {
      const balance = await getBalance(db, accountId);
      return { balance: balance.balancePence, held: balance.heldPence, available: balance.availablePence };
    },
  };
}
