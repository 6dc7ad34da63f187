// @dormant/billing: accounts, the ledger, fee holds, capture on acceptance, top-ups. Other
// services talk to it over the bus (billing.rpc, filing.events); this entry point lets their
// integration tests run the real service in-process (BILLING_MIGRATIONS_DIR to cache a migrated
// billing database as a template). Operator functions: "@dormant/billing/admin".
export { startBilling } from "./service.ts";
export { BILLING_MIGRATIONS_DIR } from "./db/migrations.ts";
export type { BillingService, StartBillingOptions } from "./service.ts";
export { loadBillingConfig, billingEnvSchema, DEVELOPMENT_WEBHOOK_SECRET } from "./env.ts";
export type { BillingConfig } from "./env.ts";
export { signPaymentWebhook, SIGNATURE_HEADER } from "./webhook/signature.ts";
