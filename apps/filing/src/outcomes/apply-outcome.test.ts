import { randomUUID } from "node:crypto";
import type { RegistryOutcome, TaxPartOutcome } from "@dormant/contracts";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { FilingBusyError, MAX_WRITE_ATTEMPTS } from "../state/write-filing.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { seedAccountsFiling, seedCt600Filing, submitAnswer, type SeededFiling } from "../test-support/seed.ts";
import { applyOutcome } from "./apply-outcome.ts";
import { applyRegistryOutcome } from "./registry-changes.ts";
import { applyTaxOutcome, applyTaxPolling } from "./tax-part-changes.ts";

let database: TestDatabase;
let db: FilingDb;
beforeAll(async () => {
  database = await createFilingTestDatabase("outcomes");
  db = createFilingDb(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const accepted = (filing: SeededFiling, part: number): TaxPartOutcome => ({
  outcome: "accepted",
  filing_id: filing.id,
  part_number: part,
  correlation_id: filing.correlationIds[part - 1]!,
  receipt_irmark_base32: `IRU${part}`.padEnd(32, "A"),
  receipt_message: "received",
  accepted_time: new Date().toISOString(),
});
const failed = (
  filing: SeededFiling,
  part: number,
  outcome: "rejected" | "error",
  code: "TAX_UTR_MISMATCH" | "GATEWAY_TIMEOUT" | "PERIOD_ALREADY_FILED",
): TaxPartOutcome => ({
  outcome,
  filing_id: filing.id,
  part_number: part,
  correlation_id: filing.correlationIds[part - 1]!,
  error: { code, message: `${code} on part ${part}` },
  authority_errors: [],
});

function taxOutcome(outcome: TaxPartOutcome, messageId = randomUUID()) {
  return applyOutcome(
    db,
    { messageId, type: "tax.part_outcome", filingId: outcome.filing_id, requestId: "req-outcome" },
    applyTaxOutcome(outcome),
  );
}
function polling(filing: SeededFiling, part: number, messageId = randomUUID()) {
  const payload = {
    filing_id: filing.id,
    part_number: part,
    correlation_id: filing.correlationIds[part - 1]!,
    polled_at: new Date().toISOString(),
  };
  return applyOutcome(db, { messageId, type: "tax.part_polling", filingId: filing.id, requestId: "req-poll" }, applyTaxPolling(payload));
}

async function state(filingId: string) {
  const filing = await db.filing.findUniqueOrThrow({ where: { id: filingId }, include: { parts: { orderBy: { partNumber: "asc" } } } });
  const events = await db.outboxMessage.findMany({ where: { payload: { path: ["filing_id"], equals: filingId } } });
  return {
    status: filing.status,
    error: filing.errorCode,
    parts: filing.parts.map((p) => p.taxStatus),
    events: events.map((e) => e.type),
    history: await db.statusHistory.count({ where: { filingId } }),
  };
}

describe("tax outcomes on a single-period filing", () => {
  it("moves through polling to accepted, keeps the IRU number, and writes one event", async () => {
    const filing = await seedCt600Filing(db, 1);
    expect(await polling(filing, 1)).toBe("applied");
    expect(await state(filing.id)).toMatchObject({ status: "submitted", parts: ["polling"], events: [] });
    expect(await taxOutcome(accepted(filing, 1))).toBe("applied");
    const after = await state(filing.id);
    expect(after).toMatchObject({ status: "accepted", parts: ["accepted"], events: ["filing.accepted"] });
    expect((await db.filingPart.findFirstOrThrow({ where: { filingId: filing.id } })).taxIruNumber).toBe("IRU1".padEnd(32, "A"));
    const last = await db.statusHistory.findMany({ where: { filingId: filing.id }, orderBy: { id: "desc" }, take: 2 });
    expect(last.map((h) => [h.field, h.toStatus, h.cause])).toEqual([
      ["status", "accepted", expect.stringMatching(/^tax\.part_outcome message /)],
      ["tax_status", "accepted", expect.stringMatching(/^tax\.part_outcome message /)],
    ]);
  });

  it("changes nothing for a duplicate or a late message", async () => {
    const filing = await seedCt600Filing(db, 1);
    const messageId = randomUUID();
    expect(await taxOutcome(accepted(filing, 1), messageId)).toBe("applied");
    const before = await state(filing.id);
    expect(await taxOutcome(accepted(filing, 1), messageId)).toBe("duplicate");
    expect(await polling(filing, 1)).toBe("ignored");
    expect(await taxOutcome(failed(filing, 1, "rejected", "TAX_UTR_MISMATCH"))).toBe("ignored");
    expect(await state(filing.id)).toEqual(before);
  });

  it("ignores an outcome about another submission, and one for a filing it does not have", async () => {
    const filing = await seedCt600Filing(db, 1);
    expect(await taxOutcome({ ...accepted(filing, 1), correlation_id: "0".repeat(32) })).toBe("ignored");
    expect(await taxOutcome({ ...accepted(filing, 1), part_number: 2 })).toBe("ignored");
    expect((await state(filing.id)).status).toBe("submitted");
    const unknown = randomUUID();
    expect(await taxOutcome({ ...accepted(filing, 1), filing_id: "fil_doesnotexist" }, unknown)).toBe("unknown_filing");
    expect(await db.inboxMessage.count({ where: { messageId: unknown } })).toBe(1);
  });

  it("applies an outcome that overtook the record of its own submit, and the late record changes no status", async () => {
    const filing = await seedCt600Filing(db, 1, { acknowledged: false });
    expect(await taxOutcome(accepted(filing, 1))).toBe("applied");
    expect(await state(filing.id)).toMatchObject({ status: "accepted", parts: ["accepted"], events: ["filing.accepted"] });
    await recordTaxPartSubmitted(db, filing.id, 1, submitAnswer(filing.correlationIds[0]!), "late");
    const part = await db.filingPart.findFirstOrThrow({ where: { filingId: filing.id } });
    expect(part).toMatchObject({ taxStatus: "accepted", taxCorrelationId: filing.correlationIds[0], irmark: expect.any(String) });
    expect(await state(filing.id)).toMatchObject({ status: "accepted", events: ["filing.accepted"] });
    expect(await db.document.count({ where: { filingId: filing.id, type: "ct600_xml" } })).toBe(1);
  });
});

describe("split filings", () => {
  it("are accepted once both parts are", async () => {
    const filing = await seedCt600Filing(db, 2);
    await taxOutcome(accepted(filing, 1));
    expect(await state(filing.id)).toMatchObject({ status: "submitted", parts: ["accepted", "submitted"], events: [] });
    await polling(filing, 2);
    await taxOutcome(accepted(filing, 2));
    expect(await state(filing.id)).toMatchObject({ status: "accepted", parts: ["accepted", "accepted"], events: ["filing.accepted"] });
  });

  it("are rejected as soon as either part is, and a later acceptance of the other changes only that part", async () => {
    const filing = await seedCt600Filing(db, 2);
    await taxOutcome(failed(filing, 2, "rejected", "PERIOD_ALREADY_FILED"));
    expect(await state(filing.id)).toMatchObject({
      status: "rejected",
      error: "PERIOD_ALREADY_FILED",
      parts: ["submitted", "rejected"],
      events: ["filing.rejected"],
    });
    expect(await taxOutcome(accepted(filing, 1))).toBe("applied");
    expect(await state(filing.id)).toMatchObject({
      status: "rejected",
      error: "PERIOD_ALREADY_FILED",
      parts: ["accepted", "rejected"],
      events: ["filing.rejected"],
    });
  });

  it("end in error when one part errs and the other is accepted (the error waits for the other part)", async () => {
    const filing = await seedCt600Filing(db, 2);
    await taxOutcome(failed(filing, 1, "error", "GATEWAY_TIMEOUT"));
    expect(await state(filing.id)).toMatchObject({ status: "submitted", parts: ["error", "submitted"], events: [] });
    await taxOutcome(accepted(filing, 2));
    expect(await state(filing.id)).toMatchObject({
      status: "error",
      error: "GATEWAY_TIMEOUT",
      parts: ["error", "accepted"],
      events: ["filing.errored"],
    });
  });

  it("become accepted when the authority's acceptance of the part in error arrives late: one filing.accepted that says it corrects the error", async () => {
    const filing = await seedCt600Filing(db, 2);
    await taxOutcome(failed(filing, 1, "error", "GATEWAY_TIMEOUT"));
    await taxOutcome(accepted(filing, 2));
    expect(await state(filing.id)).toMatchObject({ status: "error", events: ["filing.errored"] });
    const late = randomUUID();
    expect(await taxOutcome(accepted(filing, 1), late)).toBe("applied");
    expect(await taxOutcome(accepted(filing, 1), late)).toBe("duplicate");
    expect(await taxOutcome(accepted(filing, 1))).toBe("ignored");
    expect(await state(filing.id)).toMatchObject({
      status: "accepted",
      error: null,
      parts: ["accepted", "accepted"],
      events: ["filing.errored", "filing.accepted"],
    });
    const event = await db.outboxMessage.findFirstOrThrow({
      where: { type: "filing.accepted", payload: { path: ["filing_id"], equals: filing.id } },
    });
    expect(event.payload).toMatchObject({ filing_id: filing.id, fee_pence: expect.any(Number), corrects: "error" });
    const row = await db.filing.findUniqueOrThrow({ where: { id: filing.id }, include: { parts: { orderBy: { partNumber: "asc" } } } });
    expect(row.parts[0]).toMatchObject({ taxStatus: "accepted", errorCode: null, taxIruNumber: expect.stringMatching(/^IRU1/) });
    const last = await db.statusHistory.findFirstOrThrow({ where: { filingId: filing.id, field: "status" }, orderBy: { id: "desc" } });
    expect(last).toMatchObject({ fromStatus: "error", toStatus: "accepted" });
  });

  it("take a late acceptance even after the account filed the same period again: both stand, the refiling holds the live place", async () => {
    const accountId = `acc_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const first = await seedCt600Filing(db, 1, { accountId, periodEnd: "2026-03-31" });
    await taxOutcome(failed(first, 1, "error", "GATEWAY_TIMEOUT"));
    // Filing again is allowed after an error; the refiling is live (submitted) in the index.
    const refiling = await seedCt600Filing(db, 1, { accountId, periodEnd: "2026-03-31" });
    expect(await taxOutcome(accepted(first, 1))).toBe("applied");
    expect(await state(first.id)).toMatchObject({ status: "accepted", events: ["filing.errored", "filing.accepted"] });
    const rows = await db.filing.findMany({ where: { id: { in: [first.id, refiling.id] } }, orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => [row.id, row.status, row.acceptedLate])).toEqual([
      [first.id, "accepted", true],
      [refiling.id, "submitted", false],
    ]);
    // The refiling still holds the place: a third live filing is refused by the index.
    await expect(seedCt600Filing(db, 1, { accountId, periodEnd: "2026-03-31" })).rejects.toMatchObject({
      code: "FILING_EXISTS",
      details: [{ filing_id: refiling.id }],
    });
  });

  it("never turn a rejected filing accepted", async () => {
    const filing = await seedCt600Filing(db, 2);
    await taxOutcome(failed(filing, 1, "rejected", "TAX_UTR_MISMATCH"));
    await taxOutcome(failed(filing, 2, "error", "GATEWAY_TIMEOUT"));
    await taxOutcome(accepted(filing, 2));
    expect(await state(filing.id)).toMatchObject({ status: "rejected", parts: ["rejected", "accepted"], events: ["filing.rejected"] });
  });

  it("end rejected when one part errs and the other is rejected", async () => {
    const filing = await seedCt600Filing(db, 2);
    await taxOutcome(failed(filing, 1, "error", "GATEWAY_TIMEOUT"));
    await taxOutcome(failed(filing, 2, "rejected", "TAX_UTR_MISMATCH"));
    expect(await state(filing.id)).toMatchObject({ status: "rejected", error: "TAX_UTR_MISMATCH", events: ["filing.rejected"] });
  });

  it("apply both parts' outcomes exactly once when they arrive at the same time", async () => {
    const filing = await seedCt600Filing(db, 2);
    await Promise.all([taxOutcome(accepted(filing, 1)), taxOutcome(accepted(filing, 2))]);
    expect(await state(filing.id)).toMatchObject({ status: "accepted", events: ["filing.accepted"] });
  });
});

describe("registry outcomes", () => {
  const registryOutcome = (
    filing: SeededFiling,
    outcome: RegistryOutcome["outcome"],
    submissionNumber = filing.submissionNumber!,
  ): RegistryOutcome =>
    outcome === "accepted"
      ? {
          outcome,
          filing_id: filing.id,
          submission_number: submissionNumber,
          registry_status: "ACCEPT",
          decided_at: new Date().toISOString(),
        }
      : {
          outcome,
          filing_id: filing.id,
          submission_number: submissionNumber,
          registry_status: outcome === "rejected" ? "REJECT" : "INTERNAL_FAILURE",
          error: { code: outcome === "rejected" ? "AUTH_CODE_INVALID" : "INTERNAL_ERROR", message: "no" },
          rejections: outcome === "rejected" ? [{ code: "601", description: "Company authentication code invalid" }] : [],
        };
  const apply = (outcome: RegistryOutcome, messageId = randomUUID()) =>
    applyOutcome(
      db,
      { messageId, type: "registry.outcome", filingId: outcome.filing_id, requestId: "req-registry" },
      applyRegistryOutcome(outcome),
    );

  it("turn errored accounts accepted when the registry accepts them late, with one corrective filing.accepted", async () => {
    const filing = await seedAccountsFiling(db);
    await apply(registryOutcome(filing, "error"));
    expect((await state(filing.id)).status).toBe("error");
    expect(await apply(registryOutcome(filing, "accepted"))).toBe("applied");
    const events = await db.outboxMessage.findMany({
      where: { payload: { path: ["filing_id"], equals: filing.id } },
      orderBy: { id: "asc" },
    });
    expect(events.map((event) => [event.type, (event.payload as { corrects?: string }).corrects])).toEqual([
      ["filing.errored", undefined],
      ["filing.accepted", "error"],
    ]);
    expect(await db.filing.findUniqueOrThrow({ where: { id: filing.id } })).toMatchObject({
      status: "accepted",
      registryStatus: "accepted",
      errorCode: null,
    });
  });

  it("accept accounts once", async () => {
    const filing = await seedAccountsFiling(db);
    expect(await apply(registryOutcome(filing, "accepted"))).toBe("applied");
    expect(await apply(registryOutcome(filing, "rejected"))).toBe("ignored");
    const row = await db.filing.findUniqueOrThrow({ where: { id: filing.id } });
    expect(row).toMatchObject({ status: "accepted", registryStatus: "accepted" });
    expect((await state(filing.id)).events).toEqual(["filing.accepted"]);
  });

  it("reject accounts with the registry's reason in the filing and its history", async () => {
    const filing = await seedAccountsFiling(db);
    expect(await apply(registryOutcome(filing, "rejected", "ZZZZZZ"))).toBe("ignored");
    expect(await apply(registryOutcome(filing, "rejected"))).toBe("applied");
    const row = await db.filing.findUniqueOrThrow({ where: { id: filing.id } });
    expect(row).toMatchObject({ status: "rejected", registryStatus: "rejected", errorCode: "AUTH_CODE_INVALID" });
    const history = await db.statusHistory.findFirstOrThrow({
      where: { filingId: filing.id, field: "registry_status", toStatus: "rejected" },
    });
    expect(history.cause).toMatch(/registry REJECT 601 Company authentication code invalid/);
    expect((await state(filing.id)).events).toEqual(["filing.rejected"]);
  });
});

describe("at the same time", () => {
  it("applies a message delivered several times at once exactly once", async () => {
    const filing = await seedCt600Filing(db, 1);
    const before = await state(filing.id);
    const messageId = randomUUID();
    const effects = await Promise.all(Array.from({ length: 6 }, () => taxOutcome(accepted(filing, 1), messageId)));
    expect(effects.filter((effect) => effect === "applied")).toHaveLength(1);
    expect(effects.filter((effect) => effect === "duplicate")).toHaveLength(5);
    expect(await state(filing.id)).toEqual({
      ...before,
      status: "accepted",
      parts: ["accepted"],
      events: ["filing.accepted"],
      history: before.history + 2,
    });
    expect(await db.inboxMessage.count({ where: { messageId } })).toBe(1);
  });

  it("records both parts' acknowledgements and an outcome that overtook one of them, settling the filing once", async () => {
    const filing = await seedCt600Filing(db, 2, { acknowledged: false });
    const [first, second] = filing.correlationIds as [string, string];
    await Promise.all([
      recordTaxPartSubmitted(db, filing.id, 1, submitAnswer(first), "ack-1"),
      recordTaxPartSubmitted(db, filing.id, 2, submitAnswer(second), "ack-2"),
      polling(filing, 1),
      taxOutcome(accepted(filing, 2)),
    ]);
    const row = await db.filing.findUniqueOrThrow({ where: { id: filing.id }, include: { parts: { orderBy: { partNumber: "asc" } } } });
    expect(row.status).toBe("submitted");
    expect(row.parts.map((p) => [p.taxStatus, p.taxCorrelationId, p.irmark !== null])).toEqual([
      ["polling", first, true],
      ["accepted", second, true],
    ]);
    expect(row.submittedAt?.getTime()).toBe(Math.max(...row.parts.map((p) => p.submittedAt!.getTime())));
    const moves = await db.statusHistory.findMany({ where: { filingId: filing.id, field: "status" }, orderBy: { id: "asc" } });
    expect(moves.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, "pending"],
      ["pending", "submitted"],
    ]);
    expect(await db.document.count({ where: { filingId: filing.id, type: "ct600_xml" } })).toBe(2);

    await Promise.all([taxOutcome(accepted(filing, 1)), taxOutcome(accepted(filing, 1)), polling(filing, 2)]);
    expect(await state(filing.id)).toMatchObject({ status: "accepted", parts: ["accepted", "accepted"], events: ["filing.accepted"] });
  });
});

describe("a filing that keeps changing under an outcome", () => {
  it("gives up after MAX_WRITE_ATTEMPTS stale writes with nothing written, and the redelivery applies it", async () => {
    const filing = await seedCt600Filing(db, 1);
    // Another writer bumps the filing's version between every read and write of this outcome.
    let writes = 0;
    const contended = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== "$queryRaw") return Reflect.get(target, prop, receiver);
        return async (strings: TemplateStringsArray, ...values: unknown[]) => {
          if (strings[0]?.includes("UPDATE filings SET version = version + 1")) {
            writes += 1;
            await target.$executeRaw`UPDATE filings SET version = version + 1 WHERE id = ${filing.id}`;
          }
          return target.$queryRaw(strings, ...values);
        };
      },
    });
    const message = { messageId: randomUUID(), type: "tax.part_outcome" as const, filingId: filing.id, requestId: "req-busy" };
    const before = await state(filing.id);

    await expect(applyOutcome(contended, message, applyTaxOutcome(accepted(filing, 1)))).rejects.toBeInstanceOf(FilingBusyError);
    expect(writes).toBe(MAX_WRITE_ATTEMPTS);
    expect(await state(filing.id)).toEqual(before);
    expect(await db.inboxMessage.count({ where: { messageId: message.messageId } })).toBe(0);

    // The handler threw, so the bus delivers the message again: now it applies, once.
    expect(await applyOutcome(db, message, applyTaxOutcome(accepted(filing, 1)))).toBe("applied");
    expect(await state(filing.id)).toMatchObject({ status: "accepted", parts: ["accepted"], events: ["filing.accepted"] });
  });
});
