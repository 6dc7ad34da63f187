import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { adminCli, runFilingAdminCli } from "./cli.ts";

// `admin filing-activity` on a real filing database; the counts themselves: reads/filing-activity.test.ts.
let database: TestDatabase;

function streams() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    stdout: {
      write: (chunk: string) => {
        out.stdout += chunk;
        return true;
      },
    },
    stderr: {
      write: (chunk: string) => {
        out.stderr += chunk;
        return true;
      },
    },
  };
}

beforeAll(async () => {
  database = await createFilingTestDatabase("admin_cli");
  const db = createFilingDb(database.url);
  await db.filing.create({
    data: {
      id: "fil_admin_cli_1",
      accountId: "acc_admin_cli",
      keyId: "key_admin_cli",
      idempotencyKey: "k1",
      requestFingerprint: "f".repeat(64),
      requestId: "req",
      filingType: "ct600",
      companyNumber: "00000001",
      companyName: "LOVELACE ENGINES LIMITED",
      periodStart: new Date("2025-04-01T00:00:00Z"),
      periodEnd: new Date("2026-03-31T00:00:00Z"),
      periodSplit: false,
      status: "pending",
      feePence: 2000,
      derivedValues: {},
      createdAt: new Date("2026-11-27T11:59:00.000Z"),
    },
  });
  await db.$disconnect();
});

afterAll(async () => {
  await database?.drop();
});

describe("admin filing-activity", () => {
  it("prints one JSON object: the counts and the oldest unfinished filings", async () => {
    const s = streams();
    const code = await runFilingAdminCli(
      ["filing-activity"],
      { env: { FILING_DATABASE_URL: database.url }, ...s },
      () => new Date("2026-11-27T12:00:00.000Z"),
    );
    expect(code).toBe(0);
    expect(s.out.stderr).toBe("");
    expect(JSON.parse(s.out.stdout)).toEqual({
      as_of: "2026-11-27T12:00:00.000Z",
      filings: {
        submitted: { last_5m: 0, last_60m: 0 },
        accepted: { last_5m: 0, last_60m: 0 },
        rejected: { last_5m: 0, last_60m: 0 },
        errored: { last_5m: 0, last_60m: 0 },
      },
      oldest_unfinished_age_seconds: 60,
      oldest_unfinished: [{ type: "ct600", status: "pending", age_seconds: 60, filing_id: "fil_admin_cli_1" }],
    });
  });

  it("exits 2 on a bad invocation and 1 when the database cannot be read", async () => {
    const bad = streams();
    expect(await runFilingAdminCli(["filing-activity", "--since", "x"], { env: {}, ...bad })).toBe(2);
    expect(bad.out.stderr).toContain("usage:");
    const down = streams();
    const url = new URL(database.url);
    url.pathname = "/dormant_filing_does_not_exist_here";
    expect(await runFilingAdminCli(["filing-activity"], { env: { FILING_DATABASE_URL: url.href }, ...down })).toBe(1);
    expect(down.out.stdout).toBe("");
    expect(down.out.stderr).toContain("filing-activity failed");
  });

  it("joins the root admin CLI with its command, usage and help", () => {
    expect(adminCli.commands).toEqual(["filing-activity"]);
    expect(adminCli.usage).toContain("admin filing-activity");
    expect(adminCli.help["filing-activity"]).toContain("5 and 60 minutes");
  });
});
