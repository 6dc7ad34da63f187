import {
  getBalance,
  listLedger,
  reconcile,
  withBillingDb,
  type BalanceView,
  type LedgerLineView,
  type ReconcileReport,
} from "@dormant/billing/admin";

/** The operator's view of billing (the functions behind `npm run admin -- balance / ledger / reconcile`). */
export interface BillingAdmin {
  balance(accountId: string): Promise<BalanceView>;
  ledger(accountId: string): Promise<LedgerLineView[]>;
  reconcile(): Promise<ReconcileReport>;
  /** Filing ids with a `capture` entry, once per entry (a double charge shows twice). */
  captures(accountId: string): Promise<string[]>;
}

export function billingAdmin(databaseUrl: string): BillingAdmin {
  const ledger = async (accountId: string) =>
    (await withBillingDb(databaseUrl, (db) => listLedger(db, { accountId, limit: 100_000 }))).entries;
  return {
    balance: (accountId) => withBillingDb(databaseUrl, (db) => getBalance(db, accountId)),
    ledger,
    reconcile: () => withBillingDb(databaseUrl, (db) => reconcile(db)),
    captures: async (accountId) =>
      (await ledger(accountId)).filter((entry) => entry.kind === "capture").map((entry) => entry.filing_id ?? "(none)"),
  };
}
