import { randomUUID } from "node:crypto";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { seedCt600Filing } from "../test-support/seed.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { readFiling } from "./filing-rows.ts";
import { writeFiling } from "./write-filing.ts";
import { beginChange, moveFiling, partOf, recordHistory } from "./transitions.ts";

let database: TestDatabase;
let db: FilingDb;
beforeAll(async () => {
  database = await createFilingTestDatabase("record");
  db = createFilingDb(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const counts = async (filingId: string) => ({
  history: await db.statusHistory.count({ where: { filingId } }),
  events: await db.outboxMessage.count({ where: { payload: { path: ["filing_id"], equals: filingId } } }),
  documents: await db.document.count({ where: { filingId } }),
  inbox: await db.inboxMessage.count({ where: { filingId } }),
});

describe("a filing record", () => {
  it("reads the filing with its parts in order, and nothing for another key or an unknown id", async () => {
    const seeded = await seedCt600Filing(db, 2, { keyId: "key_record" });
    const filing = (await readFiling(db, seeded.id))!;
    expect(filing).toMatchObject({ id: seeded.id, keyId: "key_record", status: "submitted", periodSplit: true, filingType: "ct600" });
    expect(filing.parts.map((p) => [p.partNumber, p.taxStatus, p.taxCorrelationId])).toEqual([
      [1, "submitted", seeded.correlationIds[0]],
      [2, "submitted", seeded.correlationIds[1]],
    ]);
    expect(filing.periodStart.toISOString()).toBe("2025-01-01T00:00:00.000Z");
    expect(await readFiling(db, seeded.id, { scope: { keyId: "key_record" } })).toEqual(filing);
    expect(await readFiling(db, seeded.id, { scope: { keyId: "key_other" } })).toBeNull();
    expect(await readFiling(db, "fil_unknown")).toBeNull();
  });

  it("writes a change as one statement: the rows, its history, event and inbox row, and a new version", async () => {
    const seeded = await seedCt600Filing(db, 1);
    const before = (await readFiling(db, seeded.id))!;
    const change = beginChange(before);
    const part = partOf(change, 1)!;
    recordHistory(change, { partNumber: 1, field: "tax_status", from: part.taxStatus, to: "accepted", cause: "test" });
    Object.assign(part, { taxStatus: "accepted", taxIruNumber: "IRU", updatedAt: change.now });
    moveFiling(change, "accepted", { text: "test", requestId: "req-test" });
    const inbox = { messageId: randomUUID(), type: "tax.part_outcome" };
    const written = await writeFiling(db, { ...change, inbox });
    expect(written).toMatchObject({ status: "accepted", version: before.version + 1 });
    const read = (await readFiling(db, seeded.id))!;
    expect(read).toEqual(written);
    expect(read.parts[0]).toMatchObject({ taxStatus: "accepted", taxIruNumber: "IRU" });
    expect(read.finalizedAt?.getTime()).toBe(change.now.getTime());
    const history = await db.statusHistory.findMany({ where: { filingId: seeded.id }, orderBy: { id: "desc" }, take: 2 });
    expect(history.map((h) => [h.field, h.fromStatus, h.toStatus])).toEqual([
      ["status", "submitted", "accepted"],
      ["tax_status", "submitted", "accepted"],
    ]);
    expect(await counts(seeded.id)).toMatchObject({ events: 1, inbox: 1 });
  });

  it("writes nothing at all when the filing moved since it was read", async () => {
    const seeded = await seedCt600Filing(db, 1);
    const stale = (await readFiling(db, seeded.id))!;
    // Someone else changes the filing meanwhile (any UPDATE bumps the version).
    await db.$executeRaw`UPDATE filings SET updated_at = now(), version = version + 1 WHERE id = ${seeded.id}`;
    const before = await counts(seeded.id);
    const change = beginChange(stale);
    recordHistory(change, { partNumber: 1, field: "tax_status", from: "submitted", to: "accepted", cause: "stale" });
    partOf(change, 1)!.taxStatus = "accepted";
    moveFiling(change, "accepted", { text: "stale", requestId: "req" });
    change.documents.push({
      type: "ct600_pdf",
      partNumber: 1,
      mediaType: "application/pdf",
      fileName: "x.pdf",
      content: Buffer.from("x"),
      generatedAt: new Date(),
    });
    expect(await writeFiling(db, { ...change, inbox: { messageId: randomUUID(), type: "tax.part_outcome" } })).toBeNull();
    expect(await counts(seeded.id)).toEqual(before);
    expect((await readFiling(db, seeded.id))!).toMatchObject({
      status: "submitted",
      parts: [expect.objectContaining({ taxStatus: "submitted" })],
    });
  });

  it("fails the whole change when its message was recorded meanwhile", async () => {
    const seeded = await seedCt600Filing(db, 1);
    const filing = (await readFiling(db, seeded.id))!;
    const messageId = randomUUID();
    await db.inboxMessage.create({ data: { messageId, type: "tax.part_polling", filingId: seeded.id } });
    const change = beginChange(filing);
    recordHistory(change, { partNumber: 1, field: "tax_status", from: "submitted", to: "polling", cause: "dup" });
    partOf(change, 1)!.taxStatus = "polling";
    const before = await counts(seeded.id);
    const error = await writeFiling(db, { ...change, inbox: { messageId, type: "tax.part_polling" } }).catch((e: unknown) => e);
    expect(isUniqueViolation(error, "inbox_pkey")).toBe(true);
    expect(await counts(seeded.id)).toEqual(before);
    expect((await readFiling(db, seeded.id))!.version).toBe(filing.version);
  });
});
