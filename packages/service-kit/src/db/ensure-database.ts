import pg from "pg";

/** Creates the database named in `databaseUrl` if it does not exist yet (safe to race). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`refusing to create a database with the name "${name}"`);
  const admin = new URL(databaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
      return true;
    } catch (error) {
      // Another process created it first, which is what we wanted: 42P04 duplicate_database, or
      // 23505 unique_violation on pg_database when both CREATE DATABASE statements raced.
      const code = (error as { code?: string }).code;
      if (code === "42P04" || code === "23505") return false;
      throw error;
    }
  } finally {
    await client.end();
  }
}
