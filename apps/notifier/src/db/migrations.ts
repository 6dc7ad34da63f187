import { fileURLToPath } from "node:url";
import { applyMigrations, migrationsFingerprint } from "@dormant/service-kit";
import type { Logger } from "@dormant/service-kit";

/** The hand-written SQL migrations that bring a database to prisma/schema.prisma (plus its rules). */
export const NOTIFIER_MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

/** Creates the notifier database if needed and applies pending migrations (safe to run concurrently). */
export function migrateNotifierDatabase(databaseUrl: string, logger?: Pick<Logger, "info">): Promise<string[]> {
  return applyMigrations({ databaseUrl, migrationsDir: NOTIFIER_MIGRATIONS_DIR, ...(logger ? { logger } : {}) });
}

/** Identifies the current set of migrations (test templates are cached under it). */
export function notifierMigrationsFingerprint(): string {
  return migrationsFingerprint(NOTIFIER_MIGRATIONS_DIR);
}
