import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "@dormant/testing";
import { createGatewayDb } from "./client.ts";
import type { GatewayDb } from "./client.ts";
import { createGatewayTestDatabase } from "../test-support/test-database.ts";
import { migrateGatewayDatabase } from "./migrations.ts";

// Proves that the hand-written migration SQL and prisma/schema.prisma agree: every model and
// column is written and read back through the generated client on a freshly migrated database.
describe("gateway database schema", () => {
  let database: TestDatabase;
  let db: GatewayDb;

  beforeAll(async () => {
    database = await createGatewayTestDatabase("schema");
    db = createGatewayDb(database.url);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  it("records the migrations the way Prisma does, and re-running changes nothing", async () => {
    expect(await migrateGatewayDatabase(database.url)).toEqual([]);
    const rows = await db.$queryRaw<
      Array<{ migration_name: string }>
    >`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`;
    expect(rows.map((r) => r.migration_name)).toContain("20251122030000_accounts_and_api_keys");
  });

  it("stores and reads accounts with every column, overrides optional", async () => {
    const created = await db.account.create({
      data: { id: "acc_schema1", name: "Schema Ltd", openingBalancePence: 123_456_789_012n, rateLimitPerMinute: 5, rateLimitPerDay: 50 },
    });
    expect(created.createdAt).toBeInstanceOf(Date);
    const plain = await db.account.create({ data: { id: "acc_schema2", name: "Plain Ltd", openingBalancePence: 0n } });
    expect(plain.rateLimitPerMinute).toBeNull();
    expect(plain.rateLimitPerDay).toBeNull();
    const read = await db.account.findUniqueOrThrow({ where: { id: "acc_schema1" } });
    expect(read).toMatchObject({ name: "Schema Ltd", openingBalancePence: 123_456_789_012n, rateLimitPerMinute: 5, rateLimitPerDay: 50 });
  });

  it("stores API keys of both modes against an account, with revocation", async () => {
    await db.account.create({ data: { id: "acc_schema3", name: "Keys Ltd", openingBalancePence: 2000n } });
    await db.apiKey.create({ data: { keyId: "k1schema", accountId: "acc_schema3", mode: "live", secretHash: "a".repeat(64) } });
    await db.apiKey.create({ data: { keyId: "k2schema", accountId: "acc_schema3", mode: "test", secretHash: "b".repeat(64) } });
    const revokedAt = new Date("2025-01-02T03:04:05.678Z");
    await db.apiKey.update({ where: { keyId: "k1schema" }, data: { revokedAt } });

    const account = await db.account.findUniqueOrThrow({
      where: { id: "acc_schema3" },
      include: { apiKeys: { orderBy: { keyId: "asc" } } },
    });
    expect(account.apiKeys.map((k) => [k.keyId, k.mode, k.revokedAt?.toISOString() ?? null])).toEqual([
      ["k1schema", "live", revokedAt.toISOString()],
      ["k2schema", "test", null],
    ]);
    const key = await db.apiKey.findUniqueOrThrow({ where: { keyId: "k2schema" }, include: { account: true } });
    expect(key.account.name).toBe("Keys Ltd");
  });

  it("enforces unique key ids and the account foreign key", async () => {
    await db.account.create({ data: { id: "acc_schema4", name: "Unique Ltd", openingBalancePence: 0n } });
    await db.apiKey.create({ data: { keyId: "k3schema", accountId: "acc_schema4", mode: "live", secretHash: "c".repeat(64) } });
    await expect(
      db.apiKey.create({ data: { keyId: "k3schema", accountId: "acc_schema4", mode: "test", secretHash: "d".repeat(64) } }),
    ).rejects.toMatchObject({ code: "P2002" });
    await expect(
      db.apiKey.create({ data: { keyId: "k4schema", accountId: "acc_missing", mode: "live", secretHash: "e".repeat(64) } }),
    ).rejects.toMatchObject({ code: "P2003" });
    await expect(db.account.delete({ where: { id: "acc_schema4" } })).rejects.toBeDefined();
  });
});
