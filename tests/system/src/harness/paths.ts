import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The monorepo root (tests/system/src/harness -> four levels up). */
export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** The apps the system is made of, in the order `npm start` starts them (package.json `dormant.order`). */
export const APP_NAMES = ["authority-sim", "tax-submitter", "registry-submitter", "billing", "filing", "notifier", "gateway"] as const;
export type AppName = (typeof APP_NAMES)[number];
/** Apps a test starts on its own, beside a running system (not part of `startSystem`; the dashboard on request: `dashboard: true`). */
export type ExtraAppName = "mcp" | "dashboard";

export function appDir(app: AppName | ExtraAppName): string {
  return join(repoRoot, "apps", app);
}

/** The apps that own a database. */
export type DatabaseApp = "gateway" | "filing" | "billing" | "notifier" | "dashboard";

/** Prisma-layout SQL migrations of an app that owns a database. */
export function migrationsDir(app: DatabaseApp): string {
  return join(appDir(app), "prisma", "migrations");
}
