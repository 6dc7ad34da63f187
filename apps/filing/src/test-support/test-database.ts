import { createTestDatabase, type TestDatabase } from "@dormant/testing";
import { filingMigrationsFingerprint, migrateFilingDatabase } from "../db/migrations.ts";

/** Test support: a fresh, migrated filing database of its own (cloned from a cached template). */
export function createFilingTestDatabase(label: string): Promise<TestDatabase> {
  return createTestDatabase({
    label: `filing_${label}`,
    prepare: async (url) => void (await migrateFilingDatabase(url)),
    templateKey: `filing:${filingMigrationsFingerprint()}`,
  });
}
