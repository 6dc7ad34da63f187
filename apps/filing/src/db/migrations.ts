import { fileURLToPath } from "node:url";
import { applyMigrations, migrationsFingerprint, type Logger } from "@dormant/service-kit";

/** The hand-written SQL migrations that bring a database to prisma/schema.prisma. */
export const FILING_MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

/** Creates the filing database if needed and applies pending migrations (safe to run concurrently). */
export function migrateFilingDatabase(databaseUrl: string, logger?: Pick<Logger, "info">): Promise<string[]> {
  return applyMigrations({ databaseUrl, migrationsDir: FILING_MIGRATIONS_DIR, ...(logger ? { logger } : {}) });
}

/** Identifies the current set of migrations (test templates are cached under it). */
export function filingMigrationsFingerprint(): string {
  return migrationsFingerprint(FILING_MIGRATIONS_DIR);
}
