import { createHash, randomUUID } from "node:crypto";
import type { RegistryOutcome, TaxPartOutcome, TaxPartPolling, TaxPartSubmission } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import type { DocumentDeps } from "../documents/document-deps.ts";
import { renderOnAcceptance } from "../documents/documents-consumer.ts";
import { createPdfRenderer } from "../documents/create-pdf-renderer.ts";
import type { PdfRenderer } from "../documents/pdf-renderer.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { seedAccountsFiling, seedCt600Filing, submitAnswer, type SeededFiling } from "../test-support/seed.ts";
import { applyOutcome } from "./apply-outcome.ts";
import { applyRegistryOutcome, applyRegistryStatus } from "./registry-changes.ts";
import { applyTaxOutcome, applyTaxPolling } from "./tax-part-changes.ts";

// Issue 25: the answer of a submit is lost on its way back to the filing service (the process on
// the reply path died), so the record of that submit (IRmark, submitted_at, the message as sent)
// never arrives with it. The polling and outcome messages carry it: whichever arrives first fills
// in what the part lacks, and the accepted filing gets its documents and one documents_ready.
// Real Postgres, as the other outcome tests; the documents consumer renders inline.
let database: TestDatabase;
let db: FilingDb;
let renderer: PdfRenderer;
let deps: DocumentDeps;
beforeAll(async () => {
  database = await createFilingTestDatabase("submission_record");
  db = createFilingDb(database.url);
  const logger = createLogger({ service: "filing-test", level: "silent" });
  renderer = createPdfRenderer({ threads: 0, logger });
  deps = { db, logger, now: () => new Date(), renderer };
});
afterAll(async () => {
  await renderer?.close();
  await db?.$disconnect();
  await database?.drop();
});

const SUBMITTED_AT = "2026-05-01T10:00:00.000Z";
const record = (filing: SeededFiling, part: number): TaxPartSubmission => ({
  irmark_base64: createHash("sha1").update(`${filing.id}:${part}`).digest("base64"),
  submitted_at: SUBMITTED_AT,
  submitted_xml: `<GovTalkMessage><Part>${part}</Part><Filing>${filing.id}</Filing></GovTalkMessage>`,
});
const polling = (filing: SeededFiling, part: number, carried = true): TaxPartPolling => ({
  filing_id: filing.id,
  part_number: part,
  correlation_id: filing.correlationIds[part - 1]!,
  polled_at: new Date().toISOString(),
  ...(carried ? { submission: record(filing, part) } : {}),
});
const accepted = (filing: SeededFiling, part: number, carried = true): TaxPartOutcome => ({
  outcome: "accepted",
  filing_id: filing.id,
  part_number: part,
  correlation_id: filing.correlationIds[part - 1]!,
  receipt_irmark_base32: "R".repeat(32),
  receipt_message: "received",
  accepted_time: new Date().toISOString(),
  ...(carried ? { submission: record(filing, part) } : {}),
});

const tax = (type: "tax.part_polling" | "tax.part_outcome", payload: TaxPartPolling | TaxPartOutcome, messageId = randomUUID()) =>
  applyOutcome(
    db,
    { messageId, type, filingId: payload.filing_id, requestId: "req" },
    type === "tax.part_polling" ? applyTaxPolling(payload as TaxPartPolling) : applyTaxOutcome(payload as TaxPartOutcome),
  );

/** The parts' records, the filing's submitted_at, its documents and its events. */
async function stored(filingId: string) {
  const filing = await db.filing.findUniqueOrThrow({ where: { id: filingId }, include: { parts: { orderBy: { partNumber: "asc" } } } });
  const documents = await db.document.findMany({ where: { filingId }, orderBy: [{ type: "asc" }, { partNumber: "asc" }] });
  const events = await db.outboxMessage.findMany({ where: { payload: { path: ["filing_id"], equals: filingId } }, orderBy: { id: "asc" } });
  return {
    status: filing.status,
    submittedAt: filing.submittedAt?.toISOString() ?? null,
    parts: filing.parts.map((p) => ({ tax: p.taxStatus, irmark: p.irmark, submittedAt: p.submittedAt?.toISOString() ?? null })),
    documents: documents.map((d) => [d.type, d.partNumber]),
    xml: documents.filter((d) => d.type === "ct600_xml").map((d) => Buffer.from(d.content).toString("utf8")),
    events: events.map((e) => e.type),
  };
}

describe("a CT600 part whose submit answer was lost", () => {
  it("gets its record from tax.part_polling, then is accepted with its documents and one documents_ready", async () => {
    const filing = await seedCt600Filing(db, 1, { acknowledged: false });
    expect(await tax("tax.part_polling", polling(filing, 1))).toBe("applied");
    expect(await stored(filing.id)).toMatchObject({
      status: "submitted",
      submittedAt: SUBMITTED_AT,
      parts: [{ tax: "polling", irmark: record(filing, 1).irmark_base64, submittedAt: SUBMITTED_AT }],
      documents: [["ct600_xml", 1]],
      xml: [record(filing, 1).submitted_xml],
    });
    expect(await tax("tax.part_outcome", accepted(filing, 1))).toBe("applied");
    expect(await renderOnAcceptance(deps, randomUUID(), filing.id)).toBe("rendered");
    expect(await stored(filing.id)).toMatchObject({
      status: "accepted",
      documents: [
        ["ct600_pdf", 1],
        ["ct600_xml", 1],
      ],
      events: ["filing.accepted", "filing.documents_ready"],
    });
  });

  it("gets its record from the accepting tax.part_outcome when no polling message came", async () => {
    const filing = await seedCt600Filing(db, 1, { acknowledged: false });
    expect(await tax("tax.part_outcome", accepted(filing, 1))).toBe("applied");
    expect(await stored(filing.id)).toMatchObject({
      status: "accepted",
      submittedAt: SUBMITTED_AT,
      parts: [{ tax: "accepted", irmark: record(filing, 1).irmark_base64, submittedAt: SUBMITTED_AT }],
      documents: [["ct600_xml", 1]],
    });
    expect(await renderOnAcceptance(deps, randomUUID(), filing.id)).toBe("rendered");
    expect((await stored(filing.id)).events).toEqual(["filing.accepted", "filing.documents_ready"]);
  });

  it("a redelivered outcome fills in a part an older message (without the record) accepted; nothing moves twice", async () => {
    const filing = await seedCt600Filing(db, 1, { acknowledged: false });
    expect(await tax("tax.part_polling", polling(filing, 1, false))).toBe("applied");
    expect(await tax("tax.part_outcome", accepted(filing, 1, false))).toBe("applied");
    expect((await stored(filing.id)).parts).toEqual([{ tax: "accepted", irmark: null, submittedAt: null }]);
    // The outcome published again (the poller's completion record answers a redelivered poll).
    expect(await tax("tax.part_outcome", accepted(filing, 1))).toBe("applied");
    const after = await stored(filing.id);
    expect(after).toMatchObject({
      status: "accepted",
      parts: [{ tax: "accepted", irmark: record(filing, 1).irmark_base64 }],
      events: ["filing.accepted"],
    });
    expect(await db.statusHistory.count({ where: { filingId: filing.id, field: "tax_status", toStatus: "accepted" } })).toBe(1);
    // Once complete, the same again changes nothing; the late submit answer changes nothing either.
    expect(await tax("tax.part_outcome", accepted(filing, 1))).toBe("ignored");
    await recordTaxPartSubmitted(
      db,
      filing.id,
      1,
      { ...submitAnswer(filing.correlationIds[0]!), irmark_base64: `${"Z".repeat(27)}=` },
      "late",
    );
    expect(await stored(filing.id)).toEqual(after);
  });

  it("a split CT600 whose part 2 answer was lost: both parts' documents, the filing's submitted_at, one documents_ready", async () => {
    const filing = await seedCt600Filing(db, 2, { acknowledged: false });
    await recordTaxPartSubmitted(db, filing.id, 1, { ...submitAnswer(filing.correlationIds[0]!), submitted_at: SUBMITTED_AT }, "req");
    expect((await stored(filing.id)).submittedAt).toBeNull();
    expect(await tax("tax.part_polling", polling(filing, 2))).toBe("applied");
    expect(await tax("tax.part_outcome", accepted(filing, 1))).toBe("applied");
    expect(await tax("tax.part_outcome", accepted(filing, 2))).toBe("applied");
    expect(await renderOnAcceptance(deps, randomUUID(), filing.id)).toBe("rendered");
    expect(await stored(filing.id)).toMatchObject({
      status: "accepted",
      submittedAt: SUBMITTED_AT,
      parts: [
        { tax: "accepted", irmark: expect.any(String), submittedAt: SUBMITTED_AT },
        { tax: "accepted", irmark: record(filing, 2).irmark_base64, submittedAt: SUBMITTED_AT },
      ],
      documents: [
        ["ct600_pdf", 1],
        ["ct600_pdf", 2],
        ["ct600_xml", 1],
        ["ct600_xml", 2],
      ],
      events: ["filing.accepted", "filing.documents_ready"],
    });
  });

  it("keeps the record of a message about another submission out", async () => {
    const filing = await seedCt600Filing(db, 1);
    const before = await stored(filing.id);
    const other = { ...polling(filing, 1), correlation_id: "0".repeat(32) };
    expect(await tax("tax.part_polling", other)).toBe("ignored");
    expect(await stored(filing.id)).toEqual(before);
  });
});

describe("accounts whose submit answer was lost", () => {
  const outcome = (filing: SeededFiling, submittedAt?: string): RegistryOutcome => ({
    outcome: "accepted",
    filing_id: filing.id,
    submission_number: filing.submissionNumber!,
    registry_status: "ACCEPT",
    decided_at: new Date().toISOString(),
    ...(submittedAt ? { submitted_at: submittedAt } : {}),
  });
  const registry = (payload: RegistryOutcome) =>
    applyOutcome(
      db,
      { messageId: randomUUID(), type: "registry.outcome", filingId: payload.filing_id, requestId: "req" },
      applyRegistryOutcome(payload),
    );

  it("get submitted_at from registry.status, or from the accepting registry.outcome, and their documents", async () => {
    const viaStatus = await seedAccountsFiling(db, { acknowledged: false });
    const report = {
      filing_id: viaStatus.id,
      submission_number: viaStatus.submissionNumber!,
      registry_status: "PENDING" as const,
      polled_at: new Date().toISOString(),
      submitted_at: SUBMITTED_AT,
    };
    expect(
      await applyOutcome(
        db,
        { messageId: randomUUID(), type: "registry.status", filingId: viaStatus.id, requestId: "req" },
        applyRegistryStatus(report),
      ),
    ).toBe("applied");
    expect((await stored(viaStatus.id)).submittedAt).toBe(SUBMITTED_AT);

    const viaOutcome = await seedAccountsFiling(db, { acknowledged: false });
    expect(await registry(outcome(viaOutcome, SUBMITTED_AT))).toBe("applied");
    expect(await renderOnAcceptance(deps, randomUUID(), viaOutcome.id)).toBe("rendered");
    expect(await stored(viaOutcome.id)).toMatchObject({
      status: "accepted",
      submittedAt: SUBMITTED_AT,
      documents: [
        ["ixbrl_accounts", null],
        ["accounts_pdf", null],
      ],
      events: ["filing.accepted", "filing.documents_ready"],
    });
  });

  it("a redelivered outcome fills in submitted_at on accounts an older message accepted without it", async () => {
    const filing = await seedAccountsFiling(db, { acknowledged: false });
    expect(await registry(outcome(filing))).toBe("applied");
    expect((await stored(filing.id)).submittedAt).toBeNull();
    expect(await registry(outcome(filing, SUBMITTED_AT))).toBe("applied");
    expect(await stored(filing.id)).toMatchObject({ status: "accepted", submittedAt: SUBMITTED_AT, events: ["filing.accepted"] });
    expect(await registry(outcome(filing, SUBMITTED_AT))).toBe("ignored");
  });
});
