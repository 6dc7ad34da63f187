import { createTestDatabase } from "@dormant/testing";
import type { TestDatabase } from "@dormant/testing";
import { billingMigrationsFingerprint, migrateBillingDatabase } from "../db/migrations.ts";

/** Test support: a fresh, migrated billing database of its own (cloned from a cached template). */
export function createBillingTestDatabase(label: string): Promise<TestDatabase> {
  return createTestDatabase({
    label: `bill_${label}`,
    prepare: async (url) => void (await migrateBillingDatabase(url)),
    templateKey: `billing:${billingMigrationsFingerprint()}`,
  });
}
