import { createTestDatabase, type TestDatabase } from "@dormant/testing";
import { migrateNotifierDatabase, notifierMigrationsFingerprint } from "../db/migrations.ts";

/** Test support: a fresh, migrated notifier database of its own (cloned from a cached template). */
export function createNotifierTestDatabase(label: string): Promise<TestDatabase> {
  return createTestDatabase({
    label: `ntf_${label}`,
    prepare: async (url) => void (await migrateNotifierDatabase(url)),
    templateKey: `notifier:${notifierMigrationsFingerprint()}`,
  });
}
