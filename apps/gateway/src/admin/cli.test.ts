import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, runCaptured } from "@dormant/testing";
import type { TestDatabase } from "@dormant/testing";
import { createGatewayDb } from "../db/client.ts";
import type { GatewayDb } from "../db/client.ts";
import { runRootAdmin } from "@dormant/ops/admin";
import { migrateGatewayDatabase } from "../db/migrations.ts";
import { parseApiKey } from "../keys/format.ts";
import { createSecretHasher } from "../keys/hash.ts";
import { DEVELOPMENT_PEPPER } from "../keys/pepper.ts";
import { createApiKeyVerifier } from "../keys/verifier.ts";

const repoRoot = resolve(fileURLToPath(import.meta.url), "../../../../..");
const run = promisify(execFile);
// The CLI falls back to the development pepper, as a fresh clone does.
const { API_KEY_PEPPER: _pepper, ...environment } = process.env;

/** A gateway database and billing's (the money commands), both empty: the CLI must create their schemas itself. */
interface CliDatabases {
  gateway: TestDatabase;
  billing: TestDatabase;
}

async function createCliDatabases(label: string): Promise<CliDatabases> {
  const [gateway, billing] = await Promise.all([
    createTestDatabase({ label: `gw_cli_${label}` }),
    createTestDatabase({ label: `gw_cli_${label}_billing` }),
  ]);
  return { gateway, billing };
}

function cliEnvironment(databases: CliDatabases): Record<string, string | undefined> {
  return {
    ...environment,
    GATEWAY_DATABASE_URL: databases.gateway.url,
    BILLING_DATABASE_URL: databases.billing.url,
    NODE_ENV: "development",
  };
}

/**
 * `npm run --silent admin -- ...` in this process: the root admin CLI's dispatcher (what
 * scripts/admin.mjs runs) with its own environment and buffers for stdout and stderr.
 */
async function admin(databases: CliDatabases, ...args: string[]) {
  return runCaptured((streams) => runRootAdmin(args, { env: cliEnvironment(databases), ...streams }));
}

/** `node scripts/run-ts.mjs scripts/admin.mjs ...`, as `npm run admin` runs it: a process, the bin itself. */
async function adminProcess(databases: CliDatabases, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/run-ts.mjs", "scripts/admin.mjs", ...args], {
      cwd: repoRoot,
      env: cliEnvironment(databases),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

// The commands run in this process (a process per command is seconds of Node and tsx start-up);
// two run as the bin does, as processes: one that succeeds (list-accounts) and one refused (exit 2).
// The money test has databases of its own (its reconcile reads every account in billing's ledger),
// the account and bad-invocation tests share another pair.
describe.concurrent("admin CLI", () => {
  let ledgerDatabases: CliDatabases;
  let databases: CliDatabases;
  let db: GatewayDb;
  beforeAll(async () => {
    [ledgerDatabases, databases] = await Promise.all([createCliDatabases("ledger"), createCliDatabases("keys")]);
    db = createGatewayDb(databases.gateway.url);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await Promise.all([ledgerDatabases, databases].flatMap((pair) => (pair ? [pair.gateway.drop(), pair.billing.drop()] : [])));
  });

  it("records the opening balance in billing's ledger and serves the money commands", async () => {
    const created = await admin(ledgerDatabases, "create-account", "--name", "Ledger Formations", "--balance", "100");
    expect(created.code).toBe(0);
    const { account_id } = JSON.parse(created.stdout) as { account_id: string };
    const balance = await admin(ledgerDatabases, "balance", "--account", account_id);
    expect(balance.code).toBe(0);
    expect(JSON.parse(balance.stdout)).toEqual({ account_id, balance: "100.00", held: "0.00", available: "100.00" });
    const topUp = await admin(ledgerDatabases, "top-up", "--account", account_id, "--amount", "25.50");
    expect(topUp.code).toBe(0);
    // Both only read the ledger the top-up left.
    const [after, reconcile] = await Promise.all([
      admin(ledgerDatabases, "balance", "--account", account_id),
      admin(ledgerDatabases, "reconcile"),
    ]);
    expect(JSON.parse(after.stdout)).toMatchObject({ balance: "125.50", available: "125.50" });
    expect(reconcile.code).toBe(0);
    expect(JSON.parse(reconcile.stdout)).toMatchObject({ ok: true });
  });

  it("creates an account with working keys, lists it without secrets, and revokes a key", async () => {
    const created = await admin(databases, "create-account", "--name", "CLI Formations", "--balance", "100.50", "--rate-per-minute", "12");
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout) as { account_id: string; live_key: string; test_key: string };
    expect(Object.keys(output).sort()).toEqual(["account_id", "live_key", "test_key"]);
    expect(created.stderr).toContain(`admin dashboard-invite --account ${output.account_id} --email EMAIL`);
    expect(output.account_id).toMatch(/^acc_[0-9A-Za-z]{16}$/);
    const live = parseApiKey(output.live_key)!;
    const test = parseApiKey(output.test_key)!;
    expect([live.mode, test.mode]).toEqual(["live", "test"]);

    // The keys work for a gateway configured with the same (development) pepper.
    const verifier = createApiKeyVerifier({ db, hasher: createSecretHasher(DEVELOPMENT_PEPPER) });
    expect(await verifier.verify(live)).toMatchObject({
      ok: true,
      auth: { accountId: output.account_id, limits: { perMinute: 12, perDay: 1000 } },
    });

    const listed = await admin(databases, "list-accounts");
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(live.secret);
    expect(listed.stdout).not.toContain(test.secret);
    const { accounts } = JSON.parse(listed.stdout) as { accounts: Array<Record<string, unknown>> };
    expect(accounts.filter((account) => account.account_id === output.account_id)).toEqual([
      {
        account_id: output.account_id,
        name: "CLI Formations",
        opening_balance_pence: 10_050,
        rate_limit_per_minute: 12,
        rate_limit_per_day: null,
        api_access_enabled: true,
        created_at: expect.any(String),
        keys: expect.arrayContaining([
          { key_id: live.keyId, mode: "live", name: null, created_at: expect.any(String), last_used_at: null, revoked_at: null },
          { key_id: test.keyId, mode: "test", name: null, created_at: expect.any(String), last_used_at: null, revoked_at: null },
        ]),
      },
    ]);

    const revoked = await admin(databases, "revoke-key", "--key", live.keyId);
    expect(revoked.code).toBe(0);
    const revocation = JSON.parse(revoked.stdout) as { key_id: string; revoked_at: string };
    expect(revocation.key_id).toBe(live.keyId);
    expect(Number.isNaN(Date.parse(revocation.revoked_at))).toBe(false);
    const fresh = createApiKeyVerifier({ db, hasher: createSecretHasher(DEVELOPMENT_PEPPER) });
    expect(await fresh.verify(live)).toEqual({ ok: false, reason: "revoked" });
  });

  it("create-key issues a named key for an existing account, printed once, that works; list-accounts shows its name", async () => {
    // A dashboard sign-up: no keys, API access off (create-key switches it on). The CLI migrates
    // the empty database too; migrating is safe concurrently.
    await migrateGatewayDatabase(databases.gateway.url);
    await db.account.create({ data: { id: "acc_clikeys0001", name: "Rotating Ltd", openingBalancePence: 0n, apiAccessEnabled: false } });
    const created = await admin(databases, "create-key", "--account", "acc_clikeys0001", "--mode", "test", "--name", "CI server");
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout) as Record<string, string>;
    const key = parseApiKey(output.api_key ?? "")!;
    expect(output).toEqual({
      account_id: "acc_clikeys0001",
      key_id: key.keyId,
      mode: "test",
      name: "CI server",
      prefix: `api_test_${key.keyId}`,
      api_key: output.api_key,
    });
    const verifier = createApiKeyVerifier({ db, hasher: createSecretHasher(DEVELOPMENT_PEPPER) });
    expect(await verifier.verify(key)).toMatchObject({ ok: true, auth: { accountId: "acc_clikeys0001", mode: "test" } });

    // The bin, as a process: the same dispatch as in this process, with its exit code and streams.
    const listed = await adminProcess(databases, "list-accounts");
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.secret);
    const { accounts } = JSON.parse(listed.stdout) as {
      accounts: Array<{ account_id: string; api_access_enabled: boolean; keys: unknown[] }>;
    };
    expect(accounts.find((account) => account.account_id === "acc_clikeys0001")).toMatchObject({
      api_access_enabled: true,
      keys: [{ key_id: key.keyId, mode: "test", name: "CI server", last_used_at: null, revoked_at: null }],
    });
  }, 60_000); // a process of the bin: a tsx start-up of seconds on a loaded 2-core machine

  it("exits 2 for bad arguments and 1 for an unknown key id, with messages on stderr and nothing on stdout", async () => {
    // Every refused --balance form is covered by args.test.ts; one end to end, through the bin as
    // a process (its exit code 2 and stderr), is enough here.
    const [badBalance, unknownKey, unknownAccount] = await Promise.all([
      adminProcess(databases, "create-account", "--name", "Bad", "--balance=-5"),
      admin(databases, "revoke-key", "--key", "NoSuchKey0000000"),
      admin(databases, "create-key", "--account", "acc_NoSuchAccount0", "--mode", "live"),
    ]);
    expect(unknownAccount).toMatchObject({ code: 1, stdout: "" });
    expect(unknownAccount.stderr).toContain('no account with id "acc_NoSuchAccount0"');
    expect(badBalance).toMatchObject({ code: 2, stdout: "" });
    expect(badBalance.stderr).toContain("--balance must be an amount in GBP");
    expect(unknownKey).toMatchObject({ code: 1, stdout: "" });
    expect(unknownKey.stderr).toContain('no API key with id "NoSuchKey0000000"');
  }, 60_000); // a process of the bin
});
