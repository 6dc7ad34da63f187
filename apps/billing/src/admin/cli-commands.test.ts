import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, runCaptured } from "@dormant/testing";
import type { TestDatabase } from "@dormant/testing";
import { runBillingAdminCli } from "./cli-commands.ts";
import { openAccount } from "./operations.ts";
import { withBillingDb } from "./with-billing-db.ts";

const repoRoot = resolve(fileURLToPath(import.meta.url), "../../../../..");
const run = promisify(execFile);

/** `node --import tsx apps/billing/src/admin/cli-commands.ts ...` from the repo root: the module run as its own bin. */
async function billingAdminProcess(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "apps/billing/src/admin/cli-commands.ts", ...args], {
      cwd: repoRoot,
      env: { ...process.env, BILLING_DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The same command in this process (runBillingAdminCli, what the bin runs), its streams in buffers. */
async function billingAdmin(databaseUrl: string, ...args: string[]) {
  return runCaptured((streams) =>
    runBillingAdminCli(args, { ...process.env, BILLING_DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" }, streams),
  );
}

describe("billing admin CLI", () => {
  // An empty database: the CLI must create its schema itself.
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ label: "bill_cli" });
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Two commands run as processes of the module's bin (a failure, exit 1, and a top-up, exit 0),
  // the rest in this process: a process costs seconds of Node and tsx start-up.
  it("migrates an empty database, tops up, shows balance and ledger, reconciles; exit codes 0, 1 and 2", async () => {
    const unknown = await billingAdminProcess(database.url, "balance", "--account", "acc_cli1");
    expect(unknown).toMatchObject({ code: 1, stdout: "" });
    expect(unknown.stderr).toContain('No billing account "acc_cli1"');
    await withBillingDb(database.url, (db) => openAccount(db, { accountId: "acc_cli1", openingBalancePence: 8000n }));

    const [topped, bad] = await Promise.all([
      billingAdminProcess(database.url, "top-up", "--account", "acc_cli1", "--amount", "20.50", "--payment-id", "inv-9"),
      billingAdmin(database.url, "top-up", "--account", "acc_cli1", "--amount=-5"),
    ]);
    expect(topped.code).toBe(0);
    expect(topped.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(topped.stdout)).toEqual({
      account_id: "acc_cli1",
      balance: "100.50",
      held: "0.00",
      available: "100.50",
      payment_id: "inv-9",
      top_up_id: expect.stringMatching(/^top_/),
      amount: "20.50",
      duplicate: false,
    });
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain("--amount must be a positive amount");

    const [balance, ledger, reconciled] = await Promise.all([
      billingAdmin(database.url, "balance", "--account", "acc_cli1"),
      billingAdmin(database.url, "ledger", "--account", "acc_cli1"),
      billingAdmin(database.url, "reconcile"),
    ]);
    expect(JSON.parse(balance.stdout)).toEqual({ account_id: "acc_cli1", balance: "100.50", held: "0.00", available: "100.50" });
    expect(JSON.parse(ledger.stdout)).toMatchObject({
      account_id: "acc_cli1",
      entries: [
        { kind: "credit", balance_delta: "80.00", payment_id: "opening_acc_cli1", top_up_source: "opening" },
        { kind: "credit", balance_delta: "20.50", balance_after: "100.50", payment_id: "inv-9", top_up_source: "admin" },
      ],
    });
    expect(reconciled.code).toBe(0);
    expect(JSON.parse(reconciled.stdout)).toMatchObject({ ok: true, problems: [], warnings: [] });

    await withBillingDb(
      database.url,
      (db) => db.$executeRaw`UPDATE "accounts" SET "balance_pence" = "balance_pence" + 1 WHERE "id" = 'acc_cli1'`,
    );
    const broken = await billingAdmin(database.url, "reconcile");
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      ok: false,
      problems: ["account acc_cli1: balance is 100.51 GBP but its ledger entries sum to 100.50 GBP"],
    });
    expect(broken.stderr).toContain("reconcile found problems");
  }, 60_000); // two processes, each a tsx start-up of seconds on a loaded 2-core machine
});
