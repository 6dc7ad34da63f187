// @dormant/filing: the filing service. Other packages start it in-process (end-to-end tests)
// through startFilingService; main.ts is the process entry point. See README.md.
export { startFilingService } from "./service.ts";
export type { FilingService, FilingServiceOptions } from "./service.ts";
export { loadFilingConfig, filingEnvSchema } from "./env.ts";
export type { FilingConfig, FilingEnv } from "./env.ts";
export { migrateFilingDatabase, filingMigrationsFingerprint, FILING_MIGRATIONS_DIR } from "./db/migrations.ts";
