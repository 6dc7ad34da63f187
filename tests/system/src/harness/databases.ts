import { applyMigrations, migrationsFingerprint } from "@dormant/service-kit";
import { createTestDatabase, type TestDatabase } from "@dormant/testing";
import { type DatabaseApp, migrationsDir } from "./paths.ts";

export interface ServiceDatabases {
  gateway: TestDatabase;
  filing: TestDatabase;
  billing: TestDatabase;
  notifier: TestDatabase;
}

/** One service's database: a clone of the template migrated with its own migrations. */
function createServiceDatabase(app: DatabaseApp, label: string): Promise<TestDatabase> {
  const dir = migrationsDir(app);
  return createTestDatabase({
    label: `sys_${app}_${label}`,
    prepare: async (url) => void (await applyMigrations({ databaseUrl: url, migrationsDir: dir })),
    templateKey: `${app}:${migrationsFingerprint(dir)}`,
  });
}

/** The dashboard's own database (its users), for a system started with `dashboard: true`. */
export const createDashboardDatabase = (label: string): Promise<TestDatabase> => createServiceDatabase("dashboard", label);

/**
 * A fresh database per service that owns one, each a clone of a template migrated with that
 * app's own migrations. The template keys are the ones the apps' own tests use
 * (`<app>:<fingerprint>`), so a template built by either is reused by the other.
 */
export async function createServiceDatabases(label: string): Promise<ServiceDatabases> {
  const create = (app: DatabaseApp) => createServiceDatabase(app, label);
  // One after the other: each clone takes the template's lock, and the machine has two cores.
  const gateway = await create("gateway");
  const filing = await create("filing");
  const billing = await create("billing");
  const notifier = await create("notifier");
  return { gateway, filing, billing, notifier };
}
