import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { Logger } from "pino";
import { ensureDatabase } from "./ensure-database.ts";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Reads `prisma/migrations/<name>/migration.sql` files in name order (Prisma's layout). */
export function readMigrations(migrationsDir: string): Migration[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** One key for "this set of migrations", used to cache migrated test templates. */
export function migrationsFingerprint(migrationsDir: string): string {
  const hash = createHash("sha256");
  for (const m of readMigrations(migrationsDir)) hash.update(`${m.name}:${m.checksum};`);
  return hash.digest("hex");
}

/**
 * Applies pending migrations, each in its own transaction, recording them in the same
 * `_prisma_migrations` table (same columns and checksums) that `prisma migrate deploy` uses, so
 * either tool can take over. Prisma's schema engine is a native download that machines limited
 * to package registries cannot get (docs/decisions.md); this migrator needs only `pg`.
 * Concurrent callers serialise on an advisory lock; an edited, already applied migration is an
 * error rather than silently ignored.
 */
export async function applyMigrations(options: {
  databaseUrl: string;
  migrationsDir: string;
  logger?: Pick<Logger, "info">;
  createDatabase?: boolean;
}): Promise<string[]> {
  if (options.createDatabase !== false) await ensureDatabase(options.databaseUrl);
  const migrations = readMigrations(options.migrationsDir);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock(72707369)");
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const known = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    for (const migration of migrations) {
      const previous = known.get(migration.name);
      if (previous !== undefined) {
        if (previous !== migration.checksum) {
          throw new Error(`migration ${migration.name} was changed after it was applied (checksum differs)`);
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
      }
      applied.push(migration.name);
      options.logger?.info({ migration: migration.name }, "applied migration");
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(72707369)").catch(() => undefined);
    await client.end();
  }
  return applied;
}
