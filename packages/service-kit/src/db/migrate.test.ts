import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@dormant/testing";
import { applyMigrations, migrationsFingerprint } from "./migrate.ts";

const created: TestDatabase[] = [];
afterAll(async () => {
  for (const db of created) await db.drop();
});

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("applyMigrations", () => {
  it("applies pending migrations once, in order, recording them like Prisma", async () => {
    const db = await createTestDatabase({ label: "migrate" });
    created.push(db);
    const dir = migrationsDir({
      "20260101000000_init": 'CREATE TABLE "a" (id int);',
      "20260102000000_more": 'ALTER TABLE "a" ADD COLUMN name text;',
    });
    expect(await applyMigrations({ databaseUrl: db.url, migrationsDir: dir })).toEqual(["20260101000000_init", "20260102000000_more"]);
    expect(await applyMigrations({ databaseUrl: db.url, migrationsDir: dir })).toEqual([]);
    const rows = await query(db.url, 'SELECT migration_name, length(checksum) AS len FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows).toEqual([
      { migration_name: "20260101000000_init", len: 64 },
      { migration_name: "20260102000000_more", len: 64 },
    ]);
  });

  it("rolls back a failing migration and refuses an edited one", async () => {
    const db = await createTestDatabase({ label: "migrate" });
    created.push(db);
    const good = migrationsDir({ "1_init": 'CREATE TABLE "a" (id int);' });
    await applyMigrations({ databaseUrl: db.url, migrationsDir: good });
    const bad = migrationsDir({ "1_init": 'CREATE TABLE "a" (id int);', "2_bad": 'CREATE TABLE "b" (id int); SELECT * FROM missing;' });
    await expect(applyMigrations({ databaseUrl: db.url, migrationsDir: bad })).rejects.toThrow(/2_bad failed/);
    expect(await query(db.url, "SELECT to_regclass('b') AS t")).toEqual([{ t: null }]);
    const edited = migrationsDir({ "1_init": 'CREATE TABLE "a" (id bigint);' });
    await expect(applyMigrations({ databaseUrl: db.url, migrationsDir: edited })).rejects.toThrow(/changed after it was applied/);
  });

  it("creates the database when it does not exist and serialises concurrent runs", async () => {
    const db = await createTestDatabase({ label: "migrate" });
    created.push(db);
    await db.drop();
    const dir = migrationsDir({ "1_init": 'CREATE TABLE "a" (id int);' });
    const results = await Promise.all([1, 2, 3].map(() => applyMigrations({ databaseUrl: db.url, migrationsDir: dir })));
    expect(results.flat()).toEqual(["1_init"]);
  });

  it("fingerprints the set of migrations", () => {
    const a = migrationsDir({ "1_init": "SELECT 1;" });
    const b = migrationsDir({ "1_init": "SELECT 2;" });
    expect(migrationsFingerprint(a)).not.toBe(migrationsFingerprint(b));
    expect(migrationsFingerprint(a)).toBe(migrationsFingerprint(a));
  });
});
