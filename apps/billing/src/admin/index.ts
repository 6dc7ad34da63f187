// Operator functions of billing, for the root admin CLI (`npm run --silent admin -- ...`) and
// other tooling: each takes a billing database client (withBillingDb gives one, migrating the
// database first) and returns plain JSON-ready objects with GBP amounts as "80.00" strings.
export { withBillingDb } from "./with-billing-db.ts";
export { openAccount, getBalance, topUp, listLedger, reconcile, reconcileAgainstFilings } from "./operations.ts";
export type { BalanceView, LedgerLineView, ReconcileAgainstFilingsReport } from "./operations.ts";
export type { ReconcileOptions, ReconcileReport } from "../ledger/reconcile.ts";
export type { Correction } from "../ledger/corrections.ts";
export type { FilingsCrossCheckOptions, FilingsCrossCheckReport, ListFinalFilings } from "../ledger/filings-cross-check.ts";
export { withFilingService } from "./filing-service.ts";
export { runBillingAdminCli } from "./cli-commands.ts";
export { BILLING_ADMIN_COMMANDS, BILLING_USAGE, isBillingAdminCommand, parseBillingAdminArgs } from "./cli-args.ts";
export type { BillingAdminCommand, BillingAdminCommandName } from "./cli-args.ts";
export { billingDatabaseEnvShape } from "../db/settings.ts";
export type { BillingDb } from "../db/client.ts";
