import { createTestDatabase } from "@dormant/testing";
import type { TestDatabase } from "@dormant/testing";
import { gatewayMigrationsFingerprint, migrateGatewayDatabase } from "../db/migrations.ts";

/** Test support: a fresh, migrated gateway database of its own (cloned from a cached template). */
export function createGatewayTestDatabase(label: string): Promise<TestDatabase> {
  return createTestDatabase({
    label: `gw_${label}`,
    prepare: async (url) => void (await migrateGatewayDatabase(url)),
    templateKey: `gateway:${gatewayMigrationsFingerprint()}`,
  });
}
