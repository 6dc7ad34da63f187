import { createHash } from "node:crypto";
import pg from "pg";
import { safeLabel, testInfra, uniqueSuffix } from "./infra-urls.ts";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Names the database, for whoever lists them while a test hangs. */
  label: string;
  /** Brings an empty database to the wanted schema (e.g. the service's migrations). */
  prepare?: (databaseUrl: string) => Promise<void>;
  /** Identifies what `prepare` produces (e.g. a hash of the migration files); same key, same template. */
  templateKey?: string;
}

function urlFor(database: string): string {
  const url = new URL(testInfra.postgresAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testInfra.postgresAdminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function ensureTemplate(key: string, prepare: (url: string) => Promise<void>): Promise<string> {
  const name = `dormant_tpl_${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
  await withAdmin(async (admin) => {
    // One creator at a time across test workers; the others wait and then reuse the template.
    await admin.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
    try {
      const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
        await admin.query(`CREATE DATABASE "${building}"`);
        await prepare(urlFor(building));
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      }
    } finally {
      await admin.query("SELECT pg_advisory_unlock(hashtext($1))", [name]);
    }
  });
  return name;
}

/**
 * A fresh database of its own for one test file (or test), cloned from a migrated template so
 * that migrations run once per schema version, not once per test.
 */
export async function createTestDatabase(options: TestDatabaseOptions): Promise<TestDatabase> {
  const name = `dormant_test_${safeLabel(options.label)}_${uniqueSuffix()}`;
  const template = options.prepare ? await ensureTemplate(options.templateKey ?? options.label, options.prepare) : null;
  await withAdmin(async (admin) => {
    // A template must have no other session while it is copied; creators serialise on its lock.
    if (template) {
      await admin.query("SELECT pg_advisory_lock(hashtext($1))", [template]);
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      } finally {
        await admin.query("SELECT pg_advisory_unlock(hashtext($1))", [template]);
      }
    } else {
      await admin.query(`CREATE DATABASE "${name}"`);
    }
  });
  return {
    name,
    url: urlFor(name),
    drop: () => withAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}

/** Drops every test database and template left behind by earlier runs (called before a run). */
export async function dropLeftoverTestDatabases(): Promise<number> {
  return withAdmin(async (admin) => {
    const rows = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'dormant\\_test\\_%' OR datname LIKE 'dormant\\_tpl\\_%'",
    );
    for (const { datname } of rows.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    return rows.rowCount ?? 0;
  });
}

/** Drops login roles that tests made (named `dormant_test_…`, e.g. by infra/postgres/init.sql with a prefix) and left behind. */
export async function dropLeftoverTestRoles(): Promise<number> {
  return withAdmin(async (admin) => {
    const rows = await admin.query<{ rolname: string }>("SELECT rolname FROM pg_roles WHERE rolname LIKE 'dormant\\_test\\_%'");
    for (const { rolname } of rows.rows) await admin.query(`DROP ROLE IF EXISTS "${rolname}"`).catch(() => undefined);
    return rows.rowCount ?? 0;
  });
}
