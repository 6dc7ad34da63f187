import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { testInfra, uniqueSuffix } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoPath } from "./repo.ts";

// infra/postgres/init.sql and set-passwords.sh, run by psql on the real server as they run in
// docker-compose and by hand, with every role and database name prefixed (the file's `prefix`
// variable) so that nothing of a running system or another test is touched.
const run = promisify(execFile);
const SERVICES = ["gateway", "filing", "billing", "notifier", "dashboard"] as const;
const prefix = `dormant_test_pgroles_${uniqueSuffix()}_`;
const roleOf = (service: string) => `${prefix}${service}`;
const databaseOf = (service: string) => `${prefix}dormant_${service}`;

function urlAs(role: string, database: string): string {
  const url = new URL(testInfra.postgresAdminUrl);
  url.username = role;
  url.pathname = `/${database}`;
  return url.toString();
}

async function psql(url: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("psql", ["--no-psqlrc", "-v", "ON_ERROR_STOP=1", "-At", url, ...args], { timeout: 60_000 });
  return stdout.trim();
}

/** What a psql run as `role` on `database` ends with: "ok" or the server's complaint. */
async function connectAs(role: string, database: string): Promise<string> {
  return psql(urlAs(role, database), "-c", "SELECT 1").then(
    () => "ok",
    (error: { stderr?: string }) => error.stderr?.trim() ?? "failed",
  );
}

const admin = (sql: string) => psql(testInfra.postgresAdminUrl, "-c", sql);
const initSql = () => psql(testInfra.postgresAdminUrl, "-v", `prefix=${prefix}`, "-f", repoPath("infra/postgres/init.sql"));

beforeAll(async () => {
  await initSql();
  await initSql(); // idempotent: a second run finds everything in place
}, 120_000);

afterAll(async () => {
  for (const service of SERVICES) await admin(`DROP DATABASE IF EXISTS "${databaseOf(service)}" WITH (FORCE)`).catch(() => undefined);
  for (const service of SERVICES) await admin(`DROP ROLE IF EXISTS "${roleOf(service)}"`).catch(() => undefined);
});

describe("infra/postgres/init.sql", () => {
  it("makes one plain login role per service, owning its database", async () => {
    for (const service of SERVICES) {
      const row = await admin(
        `SELECT r.rolcanlogin, r.rolsuper, r.rolcreatedb, r.rolcreaterole, pg_get_userbyid(d.datdba)
           FROM pg_roles r, pg_database d WHERE r.rolname = '${roleOf(service)}' AND d.datname = '${databaseOf(service)}'`,
      );
      expect(row, service).toBe(`t|f|f|f|${roleOf(service)}`);
    }
  });

  it("lets each role reach its own database only: CONNECT is revoked from PUBLIC", async () => {
    const outcomes: string[] = [];
    for (const service of SERVICES) {
      for (const other of SERVICES) {
        const outcome = await connectAs(roleOf(service), databaseOf(other));
        outcomes.push(
          `${service} -> ${other}: ${other === service ? outcome : /permission denied for database/.test(outcome) ? "refused" : outcome}`,
        );
      }
    }
    expect(outcomes).toEqual(
      SERVICES.flatMap((service) => SERVICES.map((other) => `${service} -> ${other}: ${other === service ? "ok" : "refused"}`)),
    );
    // e.g. the notifier's role cannot open the billing ledger's database at all
    expect(await connectAs(roleOf("notifier"), databaseOf("billing"))).toMatch(/permission denied for database/);
  });

  it("is enough for each app's migrations (its src/migrate.ts, run as the init containers run it)", async () => {
    const migrations = SERVICES.map(async (service) => {
      const variable = `${service.toUpperCase()}_DATABASE_URL`;
      await run(process.execPath, ["--import", "tsx", repoPath(`apps/${service}/src/migrate.ts`)], {
        cwd: repoPath(`apps/${service}`),
        env: {
          PATH: process.env.PATH ?? "",
          NODE_ENV: "production",
          LOG_LEVEL: "warn",
          [variable]: urlAs(roleOf(service), databaseOf(service)),
        },
        timeout: 120_000,
      });
      return psql(urlAs(roleOf(service), databaseOf(service)), "-c", "SELECT count(*) > 0 FROM _prisma_migrations");
    });
    expect(await Promise.all(migrations)).toEqual(SERVICES.map(() => "t"));
  }, 180_000);
});

describe("infra/postgres/set-passwords.sh", () => {
  it("refuses to run without every password", async () => {
    const failure = await run("bash", [repoPath("infra/postgres/set-passwords.sh")], { env: { PATH: process.env.PATH ?? "" } }).then(
      () => "",
      (error: { stderr?: string }) => error.stderr ?? "",
    );
    expect(failure).toContain(
      "missing GATEWAY_DB_PASSWORD FILING_DB_PASSWORD BILLING_DB_PASSWORD NOTIFIER_DB_PASSWORD DASHBOARD_DB_PASSWORD",
    );
  });

  it("sets each role's password as a SCRAM verifier, whatever characters it holds", async () => {
    const passwords = Object.fromEntries(SERVICES.map((service) => [`${service.toUpperCase()}_DB_PASSWORD`, `pa'ss "${service}" $x;--`]));
    await run("bash", [repoPath("infra/postgres/set-passwords.sh")], {
      env: { PATH: process.env.PATH ?? "", PGDATABASE: testInfra.postgresAdminUrl, ROLE_PREFIX: prefix, ...passwords },
    });
    for (const service of SERVICES) {
      expect(await admin(`SELECT left(rolpassword, 14) FROM pg_authid WHERE rolname = '${roleOf(service)}'`), service).toBe(
        "SCRAM-SHA-256$",
      );
    }
  });
});
