import { randomUUID } from "node:crypto";
import type { SubmitTaxPartResponse } from "@dormant/contracts";
import { createLogger } from "@dormant/service-kit";
import { waitFor } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealForSubmission } from "../submit/credentials.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { busSubmissionResolver } from "../sweeper/resolve-submissions.ts";
import { seedCt600Filing, type SeededFiling } from "../test-support/seed.ts";
import { startFilingHarness, type FilingHarness } from "../testing/filing-harness.ts";
import { completeDocuments } from "./complete-documents.ts";
import { createPdfRenderer } from "./create-pdf-renderer.ts";
import type { DocumentDeps } from "./document-deps.ts";
import { renderOnAcceptance } from "./documents-consumer.ts";
import type { PdfRenderer } from "./pdf-renderer.ts";

// Issue 25 over a real vhost, with the real tax submitter and the authority simulator: a part's
// submit reaches the submitter and the authority, but its answer goes elsewhere (the peer bus
// asks in the filing service's stead: the answer is lost to the filing service, as when the
// process on the reply path dies). The submitter polls the part to accepted; the filing service
// must still get the record of the submit, the documents and one filing.documents_ready. Then the
// repair of filings stranded before the record was carried: the record is asked of the submitter.
let h: FilingHarness;
let renderer: PdfRenderer;
let deps: DocumentDeps;
beforeAll(async () => {
  h = await startFilingHarness("lost_submit_answer", { taxSubmitter: true });
  const logger = createLogger({ service: "filing-test", level: "silent" });
  renderer = createPdfRenderer({ threads: 0, logger });
  deps = { db: h.service.db, logger, now: () => new Date(), renderer, resolver: busSubmissionResolver(h.service.bus) };
}, 120_000);
afterAll(async () => {
  await renderer?.close();
  await h?.teardown();
});

/** Sends the stored part as the filing service would, but the answer reaches only this test. */
async function submitWithAnswerLost(filing: SeededFiling, part: number): Promise<SubmitTaxPartResponse> {
  const stored = await h.service.db.filingPart.findFirstOrThrow({ where: { filingId: filing.id, partNumber: part } });
  const credentials = sealForSubmission(
    { government_gateway_id: "GW123", government_gateway_password: "correct horse battery" },
    h.config.sealingKeys[0]!,
    filing.id,
    part,
  );
  return h.peer.rpcCall("tax.submit", "tax.submit_part", { ...(stored.submitRequest as object), credentials } as never);
}

const eventTypes = (filingId: string) => h.eventsFor(filingId).map((event) => event.type);

async function documentsOf(filingId: string) {
  const documents = await h.service.db.document.findMany({ where: { filingId }, orderBy: [{ type: "asc" }, { partNumber: "asc" }] });
  return documents.map((d) => [d.type, d.partNumber]);
}

/** Waits until the filing's documents_ready was published, then a little longer: it must come once. */
async function expectOneDocumentsReady(filingId: string): Promise<void> {
  await waitFor(() => eventTypes(filingId).includes("filing.documents_ready"), { what: "filing.documents_ready", timeoutMs: 60_000 });
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(eventTypes(filingId).filter((type) => type === "filing.documents_ready")).toHaveLength(1);
  expect(eventTypes(filingId).filter((type) => type === "filing.accepted")).toHaveLength(1);
}

describe("a submit whose answer never reached the filing service", () => {
  it("single part: the polls bring the record; accepted with its IRmark, ct600_pdf, ct600_xml and one documents_ready", async () => {
    const filing = await seedCt600Filing(h.service.db, 1, { acknowledged: false });
    const response = await submitWithAnswerLost(filing, 1);
    await expectOneDocumentsReady(filing.id);
    const part = await h.service.db.filingPart.findFirstOrThrow({ where: { filingId: filing.id } });
    expect(part).toMatchObject({ taxStatus: "accepted", taxCorrelationId: response.correlation_id, irmark: response.irmark_base64 });
    expect(part.submittedAt?.toISOString()).toBe(new Date(response.submitted_at).toISOString());
    expect(await documentsOf(filing.id)).toEqual([
      ["ct600_pdf", 1],
      ["ct600_xml", 1],
    ]);
    const xml = await h.service.db.document.findFirstOrThrow({ where: { filingId: filing.id, type: "ct600_xml" } });
    expect(Buffer.from(xml.content).toString("utf8")).toBe(response.submitted_xml);
  }, 90_000);

  it("split CT600, part 2's answer lost: both parts' documents and one documents_ready", async () => {
    const filing = await seedCt600Filing(h.service.db, 2, { acknowledged: false });
    const first = await submitWithAnswerLost(filing, 1);
    await recordTaxPartSubmitted(h.service.db, filing.id, 1, first, "req-split");
    await submitWithAnswerLost(filing, 2);
    await expectOneDocumentsReady(filing.id);
    const row = await h.service.db.filing.findUniqueOrThrow({ where: { id: filing.id }, include: { parts: true } });
    expect(row.status).toBe("accepted");
    expect(row.submittedAt).not.toBeNull();
    expect(row.parts.every((part) => part.irmark !== null && part.submittedAt !== null)).toBe(true);
    expect(await documentsOf(filing.id)).toEqual([
      ["ct600_pdf", 1],
      ["ct600_pdf", 2],
      ["ct600_xml", 1],
      ["ct600_xml", 2],
    ]);
  }, 90_000);
});

describe("repairing filings stranded before the record was carried", () => {
  /** An accepted filing as such a filing was left: no IRmark, no submitted_at, no ct600 documents, no documents_ready. */
  async function stranded(): Promise<{ filing: SeededFiling; response: SubmitTaxPartResponse }> {
    const filing = await seedCt600Filing(h.service.db, 1, { acknowledged: false });
    const response = await submitWithAnswerLost(filing, 1);
    await expectOneDocumentsReady(filing.id);
    const db = h.service.db;
    await db.document.deleteMany({ where: { filingId: filing.id } });
    await db.filingPart.updateMany({ where: { filingId: filing.id }, data: { irmark: null, submittedAt: null } });
    await db.filing.update({ where: { id: filing.id }, data: { submittedAt: null, documentsReadyAt: null } });
    return { filing, response };
  }
  const readyEvents = (filingId: string) =>
    h.service.db.outboxMessage.count({ where: { type: "filing.documents_ready", payload: { path: ["filing_id"], equals: filingId } } });

  it("a replay of its parked filing.accepted asks the tax submitter for the record and completes it", async () => {
    const { filing, response } = await stranded();
    const before = await readyEvents(filing.id);
    expect(await renderOnAcceptance(deps, randomUUID(), filing.id)).toBe("rendered");
    expect(await h.service.db.filingPart.findFirstOrThrow({ where: { filingId: filing.id } })).toMatchObject({
      irmark: response.irmark_base64,
    });
    expect(await documentsOf(filing.id)).toEqual([
      ["ct600_pdf", 1],
      ["ct600_xml", 1],
    ]);
    expect((await readyEvents(filing.id)) - before).toBe(1);
  }, 90_000);

  it("the documents sweep completes it once, however often it runs", async () => {
    const { filing, response } = await stranded();
    const before = await readyEvents(filing.id);
    const options = { olderThanSeconds: 0, withinSeconds: 3600, batchSize: 100 };
    expect((await completeDocuments(deps, options)).completed).toContain(filing.id);
    expect((await completeDocuments(deps, options)).completed).not.toContain(filing.id);
    const part = await h.service.db.filingPart.findFirstOrThrow({ where: { filingId: filing.id } });
    expect(part).toMatchObject({ irmark: response.irmark_base64 });
    expect(await documentsOf(filing.id)).toEqual([
      ["ct600_pdf", 1],
      ["ct600_xml", 1],
    ]);
    expect((await readyEvents(filing.id)) - before).toBe(1);
    // Its parked message, replayed after the sweep, finds it complete.
    expect(await renderOnAcceptance(deps, randomUUID(), filing.id)).toBe("complete");
  }, 90_000);
});
