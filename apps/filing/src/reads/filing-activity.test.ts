import type { TestDatabase } from "@dormant/testing";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingMetrics } from "../metrics.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { filingActivity, oldestUnfinished } from "./filing-activity.ts";

// The operator's counts on a real filing database: rows written with chosen times around `now`.
const NOW = new Date("2026-11-27T12:00:00.000Z");
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

let database: TestDatabase;
let db: FilingDb;
let seq = 0;

async function row(fields: {
  status: "pending" | "submitted" | "accepted" | "rejected" | "error";
  type?: "ct600" | "accounts";
  createdAt?: Date;
  submittedAt?: Date | null;
  finalizedAt?: Date | null;
}) {
  seq++;
  const id = `fil_activity_${seq}`;
  await db.filing.create({
    data: {
      id,
      accountId: `acc_activity_${seq}`,
      keyId: "key_activity",
      idempotencyKey: id,
      requestFingerprint: "f".repeat(64),
      requestId: "req",
      filingType: fields.type ?? "ct600",
      companyNumber: "00000001",
      companyName: "LOVELACE ENGINES LIMITED",
      periodStart: new Date("2025-04-01T00:00:00Z"),
      periodEnd: new Date("2026-03-31T00:00:00Z"),
      periodSplit: false,
      status: fields.status,
      feePence: 2000,
      derivedValues: {},
      createdAt: fields.createdAt ?? ago(90),
      submittedAt: fields.submittedAt ?? null,
      finalizedAt: fields.finalizedAt ?? null,
    },
  });
  return id;
}

let oldestPendingCt600: string;
let oldestSubmittedAccounts: string;

beforeAll(async () => {
  database = await createFilingTestDatabase("activity");
  db = createFilingDb(database.url);
  await row({ status: "accepted", submittedAt: ago(3), finalizedAt: ago(2) });
  await row({ status: "accepted", submittedAt: ago(70), finalizedAt: ago(30) });
  await row({ status: "rejected", submittedAt: ago(50), finalizedAt: ago(45) });
  await row({ status: "error", finalizedAt: ago(4) });
  await row({ status: "error", finalizedAt: ago(61) });
  await row({ status: "submitted", submittedAt: ago(1), createdAt: ago(2) });
  oldestSubmittedAccounts = await row({ status: "submitted", type: "accounts", submittedAt: ago(100), createdAt: ago(24 * 60) });
  await row({ status: "submitted", type: "accounts", submittedAt: ago(10), createdAt: ago(11) });
  oldestPendingCt600 = await row({ status: "pending", createdAt: ago(20) });
  await row({ status: "pending", createdAt: ago(6) });
  // received after `now`: not counted in a window that ends at now
  await row({ status: "accepted", submittedAt: new Date(NOW.getTime() + 1000), finalizedAt: new Date(NOW.getTime() + 2000) });
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("filing activity", () => {
  it("counts the filings submitted and finalized in the last 5 and 60 minutes, by outcome", async () => {
    expect(await filingActivity(db, NOW)).toEqual({
      submitted: { last_5m: 2, last_60m: 4 },
      accepted: { last_5m: 1, last_60m: 2 },
      rejected: { last_5m: 0, last_60m: 1 },
      errored: { last_5m: 1, last_60m: 1 },
    });
  });

  it("answers zeros on an empty window", async () => {
    const zero = { last_5m: 0, last_60m: 0 };
    expect(await filingActivity(db, new Date("2020-01-01T00:00:00Z"))).toEqual({
      submitted: zero,
      accepted: zero,
      rejected: zero,
      errored: zero,
    });
  });

  it("finds the oldest filing not yet final of each type and status", async () => {
    expect(await oldestUnfinished(db, NOW)).toEqual([
      { type: "accounts", status: "submitted", age_seconds: 24 * 3600, filing_id: oldestSubmittedAccounts },
      { type: "ct600", status: "pending", age_seconds: 20 * 60, filing_id: oldestPendingCt600 },
      { type: "ct600", status: "submitted", age_seconds: 2 * 60, filing_id: expect.stringMatching(/^fil_activity_/) },
    ]);
  });

  it("exports the oldest ages as a gauge read at each scrape, 0 where there is none", async () => {
    const registry = new Registry();
    const metrics = createFilingMetrics(registry);
    metrics.watchUnfinished(() => oldestUnfinished(db, NOW));
    const text = await registry.metrics();
    expect(text).toContain('filing_oldest_unfinished_age_seconds{type="ct600",status="pending"} 1200');
    expect(text).toContain('filing_oldest_unfinished_age_seconds{type="accounts",status="submitted"} 86400');
    expect(text).toContain('filing_oldest_unfinished_age_seconds{type="accounts",status="pending"} 0');
    metrics.watchUnfinished(() => Promise.reject(new Error("database down")));
    expect(await registry.metrics()).toContain('filing_oldest_unfinished_age_seconds{type="ct600",status="pending"} 1200');
  });
});
