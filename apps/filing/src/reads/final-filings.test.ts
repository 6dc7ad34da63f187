import { FILING_RPC_QUEUE, type FinalFiling, type ListFinalFilingsRequest } from "@dormant/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";
import { acceptSeededPart, rejectSeededPart, seedCt600Filing, type SeededFiling } from "../test-support/seed.ts";
import { finalFilingsPageSql } from "./final-filings.ts";

// filing.list_final through the real bus, served by the filing service in-process on its own
// Postgres database: filings finalized by the service's own code, and many more written straight
// into the table with chosen finalized_at values (ties included) to check windows and pages.
let h: FilingHarness;
let accepted: SeededFiling;
let rejected: SeededFiling;
let pending: SeededFiling;

const listFinal = (request: Omit<ListFinalFilingsRequest, "limit"> & { limit?: number }) =>
  h.peer.rpcCall(FILING_RPC_QUEUE, "filing.list_final", request);

/** Every page of a window, walked as billing's reconcile walks it. */
async function walk(window: { since: string; until: string }, limit: number) {
  const pages: FinalFiling[][] = [];
  let after: ListFinalFilingsRequest["after"];
  do {
    const page = await listFinal({ ...window, limit, ...(after ? { after } : {}) });
    pages.push(page.filings);
    after = page.next;
  } while (after);
  return pages;
}

/** A filing already final, written as a row: id, status and when it was finalized are the test's. */
async function finalRow(
  id: string,
  status: "accepted" | "rejected" | "error" | "submitted",
  finalizedAt: string | null,
  // An account of its own: one live filing per account, type, company and period end.
  accountId = `acc_rows_${id}`,
) {
  await h.service.db.filing.create({
    data: {
      id,
      accountId,
      keyId: "key_rows",
      idempotencyKey: id,
      requestFingerprint: "f".repeat(64),
      requestId: "req",
      filingType: "ct600",
      companyNumber: "00000001",
      companyName: "LOVELACE ENGINES LIMITED",
      periodStart: new Date("2025-04-01T00:00:00Z"),
      periodEnd: new Date("2026-03-31T00:00:00Z"),
      periodSplit: false,
      status,
      feePence: 2000,
      derivedValues: {},
      finalizedAt: finalizedAt === null ? null : new Date(finalizedAt),
    },
  });
}

const T = (minute: number) => new Date(Date.UTC(2025, 0, 10, 12, minute)).toISOString();
const rows: Array<{ id: string; status: "accepted" | "rejected" | "error"; at: string }> = [
  { id: "fil_t0before", status: "accepted", at: "2025-01-10T11:59:59.999Z" },
  { id: "fil_t1a", status: "accepted", at: T(0) },
  // Five filings finalized in the same millisecond: ids decide, byte by byte (upper case first).
  { id: "fil_t2a", status: "accepted", at: T(1) },
  { id: "fil_t2B", status: "rejected", at: T(1) },
  { id: "fil_t2c", status: "error", at: T(1) },
  { id: "fil_t2D", status: "accepted", at: T(1) },
  { id: "fil_t2_", status: "accepted", at: T(1) },
  { id: "fil_t3", status: "rejected", at: T(2) },
  { id: "fil_t4", status: "accepted", at: T(3) },
  { id: "fil_t5until", status: "accepted", at: T(10) },
];
const window = { since: T(0), until: T(10) };
const inWindow = rows
  .filter((row) => row.at >= window.since && row.at < window.until)
  .sort((a, b) => (a.at === b.at ? (a.id < b.id ? -1 : 1) : a.at < b.at ? -1 : 1));

beforeAll(async () => {
  h = await startFilingHarness("final");
  const db = h.service.db;
  accepted = await seedCt600Filing(db, 1, { accountId: "acc_real" });
  rejected = await seedCt600Filing(db, 1, { accountId: "acc_real", companyNumber: "00000002" });
  pending = await seedCt600Filing(db, 1, { accountId: "acc_real", companyNumber: "00000003" });
  await acceptSeededPart(db, accepted, 1);
  await rejectSeededPart(db, rejected, 1);
  for (const row of rows) await finalRow(row.id, row.status, row.at);
  // Not final: never listed, whatever the window.
  await finalRow("fil_t9submitted", "submitted", null);
}, 60_000);
afterAll(async () => {
  await h?.teardown();
});

describe("filing.list_final (over the bus)", () => {
  it("lists the filings the service finalized, as they ended: the fee with the acceptance, nothing pending", async () => {
    const stored = await h.service.db.filing.findMany({
      where: { id: { in: [accepted.id, rejected.id] } },
      select: { id: true, finalizedAt: true },
    });
    const finalizedAt = new Map(stored.map((f) => [f.id, f.finalizedAt!.toISOString()]));
    const { filings, next } = await listFinal({
      since: new Date(Date.now() - 3_600_000).toISOString(),
      until: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(next).toBeUndefined();
    expect(filings.map((f) => f.filing_id).sort()).toEqual([accepted.id, rejected.id].sort());
    expect(filings).toContainEqual({
      filing_id: accepted.id,
      account_id: "acc_real",
      status: "accepted",
      fee_pence: 2000,
      finalized_at: finalizedAt.get(accepted.id),
    });
    expect(filings).toContainEqual({
      filing_id: rejected.id,
      account_id: "acc_real",
      status: "rejected",
      finalized_at: finalizedAt.get(rejected.id),
    });
    expect(filings.map((f) => f.filing_id)).not.toContain(pending.id);
  });

  it("answers a window [since, until) in one page, ordered by finalized_at then id byte by byte", async () => {
    const { filings, next } = await listFinal(window);
    expect(next).toBeUndefined();
    expect(filings.map((f) => [f.filing_id, f.status, f.finalized_at])).toEqual(inWindow.map((row) => [row.id, row.status, row.at]));
    expect(filings.map((f) => f.filing_id).slice(1, 6)).toEqual(["fil_t2B", "fil_t2D", "fil_t2_", "fil_t2a", "fil_t2c"]);
    expect(filings.filter((f) => f.status !== "accepted").every((f) => !("fee_pence" in f))).toBe(true);
  });

  it("walks the same window in pages of every size, each filing exactly once, ties split across pages", async () => {
    for (const limit of [1, 2, 3, 7, 8]) {
      const pages = await walk(window, limit);
      expect(pages.flat().map((f) => f.filing_id)).toEqual(inWindow.map((row) => row.id));
      expect(pages.every((page) => page.length <= limit)).toBe(true);
      // A page is full exactly when another one follows (8 fill one page: no empty page after it).
      expect(pages.length).toBe(Math.ceil(inWindow.length / limit));
    }
  });

  it("gives the position of a page's last filing as next, and continues from any position", async () => {
    const first = await listFinal({ ...window, limit: 3 });
    expect(first.next).toEqual({ finalized_at: T(1), filing_id: "fil_t2D" });
    const rest = await listFinal({ ...window, after: { finalized_at: T(1), filing_id: "fil_t2D" } });
    expect(rest.filings.map((f) => f.filing_id)).toEqual(inWindow.slice(3).map((row) => row.id));
    const between = await listFinal({ ...window, after: { finalized_at: T(1), filing_id: "fil_t2Z" } });
    expect(between.filings.map((f) => f.filing_id)).toEqual(["fil_t2_", "fil_t2a", "fil_t2c", "fil_t3", "fil_t4"]);
  });

  it("reads a page as one range of the index filings_finalized_at_id_idx, in its order (no sort)", async () => {
    const plan = await h.service.db.$transaction(async (tx) => {
      // A few rows make a sequential scan cheaper: take it off the table to see what the index offers.
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const request = { ...window, limit: 3, after: { finalized_at: T(1), filing_id: "fil_t2B" } };
      return tx.$queryRaw<Array<{ "QUERY PLAN": string }>>`EXPLAIN ${finalFilingsPageSql(request)}`;
    });
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    expect(text).toContain("Index Scan using filings_finalized_at_id_idx");
    expect(text).not.toContain("Sort");
  });

  it("answers an empty page for a window without final filings, and refuses a reversed window", async () => {
    expect(await listFinal({ since: "2020-01-01T00:00:00Z", until: "2020-02-01T00:00:00Z" })).toEqual({ filings: [] });
    await expect(listFinal({ since: window.until, until: window.since })).rejects.toMatchObject({
      code: "INTERNAL_ERROR",
      retryable: false,
    });
  });
});
