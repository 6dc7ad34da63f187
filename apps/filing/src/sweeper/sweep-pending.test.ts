import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../db/test-database.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { seedAccountsFiling, seedCt600Filing, submitAnswer } from "../test-support/seed.ts";
import { sweepPendingFilings } from "./sweep-pending.ts";

let database: TestDatabase;
let db: FilingDb;
beforeAll(async () => {
  database = await createFilingTestDatabase("sweeper");
  db = createFilingDb(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const eventsOf = async (filingId: string) =>
  (await db.outboxMessage.findMany({ where: { payload: { path: ["filing_id"], equals: filingId } } })).map((row) => [row.type, (row.payload as { error?: { code: string } }).error?.code]);

describe("pending sweeper", () => {
  it("ends abandoned pending filings as error, releasing the key of those that never reached an authority", async () => {
    const unsent = await seedCt600Filing(db, 1, { acknowledged: false, idempotencyKey: "crashed-1" });
    const partly = await seedCt600Filing(db, 2, { acknowledged: false, idempotencyKey: "crashed-2" });
    await recordTaxPartSubmitted(db, partly.id, 1, submitAnswer(partly.correlationIds[0]!), "before the crash");
    const accounts = await seedAccountsFiling(db, { acknowledged: false, idempotencyKey: "crashed-3" });
    const working = await seedCt600Filing(db, 1, { acknowledged: false, claimSeconds: 300 });
    const submitted = await seedCt600Filing(db, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));

    const result = await sweepPendingFilings(db, { olderThanSeconds: 0, batchSize: 100 });
    expect(result.unsent.sort()).toEqual([unsent.id, accounts.id].sort());
    expect(result.partlySent).toEqual([partly.id]);

    for (const id of [unsent.id, partly.id, accounts.id]) {
      const filing = await db.filing.findUniqueOrThrow({ where: { id } });
      expect(filing).toMatchObject({ status: "error", errorCode: "INTERNAL_ERROR", claimToken: null });
      expect(await eventsOf(id)).toEqual([["filing.errored", "INTERNAL_ERROR"]]);
      const last = await db.statusHistory.findFirstOrThrow({ where: { filingId: id, field: "status" }, orderBy: { id: "desc" } });
      expect(last).toMatchObject({ fromStatus: "pending", toStatus: "error", cause: expect.stringMatching(/^sweeper: /) });
    }
    expect((await db.filing.findUniqueOrThrow({ where: { id: unsent.id } })).idempotencyKey).toBeNull();
    expect((await db.filing.findUniqueOrThrow({ where: { id: partly.id } })).idempotencyKey).toBe("crashed-2");
    expect((await db.filing.findUniqueOrThrow({ where: { id: working.id } })).status).toBe("pending");
    expect((await db.filing.findUniqueOrThrow({ where: { id: submitted.id } })).status).toBe("submitted");

    expect(await sweepPendingFilings(db, { olderThanSeconds: 0, batchSize: 100 })).toEqual({ unsent: [], partlySent: [] });
  });

  it("leaves young pending filings alone", async () => {
    const young = await seedCt600Filing(db, 1, { acknowledged: false });
    const result = await sweepPendingFilings(db, { olderThanSeconds: 600, batchSize: 100 });
    expect(result.unsent).not.toContain(young.id);
    expect((await db.filing.findUniqueOrThrow({ where: { id: young.id } })).status).toBe("pending");
  });

  it("ends each filing once when several replicas sweep at the same time", async () => {
    const seeded = await Promise.all(Array.from({ length: 12 }, () => seedCt600Filing(db, 1, { acknowledged: false })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sweeps = await Promise.all([1, 2, 3].map(() => sweepPendingFilings(db, { olderThanSeconds: 0, batchSize: 5 })));
    const again = await sweepPendingFilings(db, { olderThanSeconds: 0, batchSize: 100 });
    const ended = [...sweeps, again].flatMap((s) => s.unsent);
    expect(new Set(ended).size).toBe(ended.length);
    const ours = new Set(seeded.map((s) => s.id));
    expect(ended.filter((id) => ours.has(id)).sort()).toEqual([...ours].sort());
    for (const { id } of seeded) expect(await eventsOf(id)).toHaveLength(1);
  });
});
