import { fileURLToPath } from "node:url";
import type { Logger } from "@dormant/service-kit";
import { applyMigrations, migrationsFingerprint } from "@dormant/service-kit";

/** The hand-written SQL migrations that bring a database to prisma/schema.prisma (plus its CHECKs). */
export const DASHBOARD_MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));

/** Creates the dashboard database if needed and applies pending migrations (safe to run concurrently). */
export function migrateDashboardDatabase(databaseUrl: string, logger?: Pick<Logger, "info">): Promise<string[]> {
  return applyMigrations({ databaseUrl, migrationsDir: DASHBOARD_MIGRATIONS_DIR, ...(logger ? { logger } : {}) });
}

/** Identifies the current set of migrations (test templates are cached under it). */
export function dashboardMigrationsFingerprint(): string {
  return migrationsFingerprint(DASHBOARD_MIGRATIONS_DIR);
}
