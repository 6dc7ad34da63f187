import { randomUUID } from "node:crypto";
import { type AppError, DocumentsList, type DocumentType, type FilingRpcCaller } from "@dormant/contracts";
import { checkIxbrlConsistency } from "@dormant/documents";
import { createLogger } from "@dormant/service-kit";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { applyOutcome } from "../outcomes/apply-outcome.ts";
import { applyRegistryOutcome } from "../outcomes/registry-changes.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { readPdf } from "../testing/read-pdf.ts";
import {
  acceptSeededPart,
  rejectSeededPart,
  seedAccountsFiling,
  seedCt600Filing,
  submitAnswer,
  type SeededFiling,
} from "../test-support/seed.ts";
import type { DocumentDeps } from "./document-deps.ts";
import { getDocument, getDocumentChunk, listDocuments } from "./document-reads.ts";
import { createInlineRenderer } from "./pdf-renderer.ts";

// Reads of documents on seeded filings (written through the service's own functions), with the
// PDFs rendered on request: here nothing consumes filing.accepted, so every PDF a read finds
// missing is rendered by the read itself (inline, FILING_DOCUMENT_RENDER_THREADS=0; the
// consumer's tests and the flow test render on a render thread).
let database: TestDatabase;
let db: FilingDb;
let deps: DocumentDeps;
const rendered: Array<{ type: DocumentType; trigger: string }> = [];
const owner: FilingRpcCaller = { account_id: "acc_docs", key_id: "key_docs", mode: "live", request_id: "req" };
const stranger: FilingRpcCaller = { ...owner, key_id: "key_other" };
const ACCEPTED_AT = "2026-11-20T10:15:30.000Z";
let single: SeededFiling;
let split: SeededFiling;
let accounts: SeededFiling;
let rejected: SeededFiling;

async function accept(filing: SeededFiling, part: number) {
  await acceptSeededPart(db, filing, part, {
    irmarkBase32: "R".repeat(31) + String(part),
    message: `HMRC has received the HMRC-CT-CT600 document ref: 1234567890 (part ${part}).`,
    acceptedAt: ACCEPTED_AT,
  });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("it succeeded"),
    (error: unknown) => error as AppError,
  );
const bytesOf = async (filing: SeededFiling, type: DocumentType, part?: number) =>
  Buffer.from(
    (await getDocument(deps, { caller: owner, filing_id: filing.id, document_type: type, ...(part ? { part } : {}) })).content_base64,
    "base64",
  );

beforeAll(async () => {
  database = await createFilingTestDatabase("document_reads");
  db = createFilingDb(database.url);
  deps = {
    db,
    logger: createLogger({ service: "filing-test", level: "silent" }),
    now: () => new Date(),
    renderer: createInlineRenderer(),
    onRendered: (type, trigger) => rendered.push({ type, trigger }),
  };
  const mine = { keyId: owner.key_id, accountId: owner.account_id };
  single = await seedCt600Filing(db, 1, mine);
  split = await seedCt600Filing(db, 2, { ...mine, companyNumber: "00000005" });
  accounts = await seedAccountsFiling(db, mine);
  rejected = await seedCt600Filing(db, 1, { ...mine, companyNumber: "00000002", periodEnd: "2026-09-30" });
  await accept(single, 1);
  await accept(split, 1);
  await accept(split, 2);
  await rejectSeededPart(db, rejected, 1);
  await applyOutcome(
    db,
    { messageId: randomUUID(), type: "registry.outcome", filingId: accounts.id, requestId: "r" },
    applyRegistryOutcome({
      outcome: "accepted",
      filing_id: accounts.id,
      submission_number: accounts.submissionNumber!,
      registry_status: "ACCEPT",
      decided_at: new Date().toISOString(),
    }),
  );
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("filing.list_documents", () => {
  it("renders the CT600 PDF a read finds missing, once, and lists it beside the XML as filed", async () => {
    const list = await listDocuments(deps, owner, single.id);
    expect(DocumentsList.parse(list)).toEqual(list);
    expect(list).toEqual({
      filing_id: single.id,
      documents: [
        { type: "ct600_pdf", name: `${single.id}-ct600.pdf`, size_bytes: expect.any(Number), generated_at: expect.any(String) },
        { type: "ct600_xml", name: `${single.id}-ct600.xml`, size_bytes: expect.any(Number), generated_at: expect.any(String) },
      ],
    });
    expect(rendered.filter((r) => r.type === "ct600_pdf")).toEqual([{ type: "ct600_pdf", trigger: "request" }]);
    // Listed sizes are the bytes served.
    expect((await bytesOf(single, "ct600_pdf")).length).toBe(list.documents[0]!.size_bytes);
    expect((await bytesOf(single, "ct600_xml")).length).toBe(list.documents[1]!.size_bytes);
    // A second read renders nothing and shows the same document.
    expect(await listDocuments(deps, owner, single.id)).toEqual(list);
    expect(rendered.filter((r) => r.type === "ct600_pdf")).toHaveLength(1);
  });

  it("lists a split CT600's two returns under distinct names, a PDF and an XML each", async () => {
    const list = await listDocuments(deps, owner, split.id);
    expect(list.documents.map((d) => [d.type, d.name])).toEqual([
      ["ct600_pdf", `${split.id}-ct600-part1.pdf`],
      ["ct600_pdf", `${split.id}-ct600-part2.pdf`],
      ["ct600_xml", `${split.id}-ct600-part1.xml`],
      ["ct600_xml", `${split.id}-ct600-part2.xml`],
    ]);
  });

  it("lists the accounts' iXBRL and renders their PDF from the stored facts", async () => {
    const list = await listDocuments(deps, owner, accounts.id);
    expect(list.documents.map((d) => [d.type, d.name])).toEqual([
      ["ixbrl_accounts", "00000001-accounts.xhtml"],
      ["accounts_pdf", "00000001-accounts-2026-03-31.pdf"],
    ]);
  });

  it("is FILING_NOT_COMPLETE before acceptance and FILING_NOT_FOUND for another key", async () => {
    expect((await failure(listDocuments(deps, owner, rejected.id))).code).toBe("FILING_NOT_COMPLETE");
    expect((await failure(listDocuments(deps, stranger, single.id))).code).toBe("FILING_NOT_FOUND");
    expect((await failure(listDocuments(deps, owner, "fil_nothinghere"))).code).toBe("FILING_NOT_FOUND");
    expect(await db.document.count({ where: { filingId: rejected.id, type: "ct600_pdf" } })).toBe(0);
  });
});

describe("filing.get_document", () => {
  it("serves a CT600 return's PDF with its company, UTR, period, declarant, IRmark and receipt", async () => {
    const document = await getDocument(deps, { caller: owner, filing_id: single.id, document_type: "ct600_pdf" });
    expect(document).toMatchObject({ document_type: "ct600_pdf", media_type: "application/pdf", file_name: `${single.id}-ct600.pdf` });
    const pdf = await readPdf(Buffer.from(document.content_base64, "base64"));
    expect(pdf.pages).toHaveLength(2);
    for (const text of [
      "LOVELACE ENGINES LIMITED",
      "00000001",
      "1234567890",
      "1 April 2025",
      "31 March 2026",
      "Augusta Ada Lovelace",
      "Director",
      "Accepted by HMRC on 20 November 2026 at 10:15:30 UTC",
    ]) {
      expect(pdf.pages[0]).toContain(text);
    }
    expect(pdf.pages[1]).toContain(`${"A".repeat(27)}=`);
    expect(pdf.pages[1]).toContain(single.correlationIds[0]);
    expect(pdf.pages[1]).toContain("HMRC has received the HMRC-CT-CT600 document ref: 1234567890 (part 1).");
  });

  it("serves part 2 of a split CT600 when asked for it, part 1 otherwise", async () => {
    const part2 = await readPdf(await bytesOf(split, "ct600_pdf", 2));
    expect(part2.pages[0]).toContain("Part 2 of 2");
    expect(part2.pages[0]).toContain("from 1 January 2026 to 31 March 2026");
    expect(part2.pages[1]).toContain(split.correlationIds[1]);
    expect((await readPdf(await bytesOf(split, "ct600_pdf"))).pages[0]).toContain("Part 1 of 2");
    expect((await bytesOf(split, "ct600_xml", 2)).toString("utf8")).toContain(split.correlationIds[1]);
    expect((await bytesOf(split, "ct600_xml")).toString("utf8")).toContain(split.correlationIds[0]);
  });

  it("serves the accounts as filed (iXBRL) and as a three-page PDF of the same facts", async () => {
    expect(checkIxbrlConsistency((await bytesOf(accounts, "ixbrl_accounts")).toString("utf8")).problems).toEqual([]);
    const pdf = await readPdf(await bytesOf(accounts, "accounts_pdf", 1));
    expect(pdf.pages).toHaveLength(3);
    expect(pdf.pages[0]).toContain("LOVELACE ENGINES LIMITED");
    expect(pdf.pages[0]).toContain("00000001");
    expect(pdf.pages[1]).toContain("Augusta Ada Lovelace");
  });

  it("is DOCUMENT_NOT_FOUND for a type or part the filing does not have, FILING_NOT_COMPLETE before acceptance", async () => {
    const get = (caller: FilingRpcCaller, filing: SeededFiling, type: DocumentType, part?: number) =>
      failure(getDocument(deps, { caller, filing_id: filing.id, document_type: type, ...(part ? { part } : {}) }));
    expect((await get(owner, single, "ixbrl_accounts")).code).toBe("DOCUMENT_NOT_FOUND");
    expect((await get(owner, accounts, "ct600_xml")).code).toBe("DOCUMENT_NOT_FOUND");
    expect((await get(owner, single, "ct600_pdf", 2)).code).toBe("DOCUMENT_NOT_FOUND");
    expect((await get(owner, accounts, "accounts_pdf", 2)).code).toBe("DOCUMENT_NOT_FOUND");
    expect((await get(owner, rejected, "ct600_pdf")).code).toBe("FILING_NOT_COMPLETE");
    expect((await get(owner, rejected, "ct600_xml")).code).toBe("FILING_NOT_COMPLETE");
    expect((await get(stranger, single, "ct600_xml")).code).toBe("FILING_NOT_FOUND");
  });

  it("renders a return whose outcome overtook the record of its submit once the record lands", async () => {
    const early = await seedCt600Filing(db, 1, { keyId: owner.key_id, acknowledged: false });
    await accept(early, 1);
    expect((await listDocuments(deps, owner, early.id)).documents).toEqual([]);
    expect((await failure(getDocument(deps, { caller: owner, filing_id: early.id, document_type: "ct600_pdf" }))).code).toBe(
      "DOCUMENT_NOT_FOUND",
    );
    await recordTaxPartSubmitted(db, early.id, 1, submitAnswer(early.correlationIds[0]!), "late");
    expect((await listDocuments(deps, owner, early.id)).documents.map((d) => d.type)).toEqual(["ct600_pdf", "ct600_xml"]);
  });
});

describe("filing.get_document_chunk", () => {
  it("hands out slices that add up to the whole document, each naming its size and version", async () => {
    const whole = await bytesOf(accounts, "accounts_pdf");
    const request = { caller: owner, filing_id: accounts.id, document_type: "accounts_pdf" as const };
    const slices: Buffer[] = [];
    const versions = new Set<string>();
    for (let offset = 0; offset < whole.length; offset += 4096) {
      const chunk = await getDocumentChunk(deps, { ...request, offset, length: 4096 });
      expect(chunk).toMatchObject({
        media_type: "application/pdf",
        file_name: "00000001-accounts-2026-03-31.pdf",
        total_bytes: whole.length,
        offset,
      });
      versions.add(chunk.generated_at);
      slices.push(Buffer.from(chunk.content_base64, "base64"));
    }
    expect(slices.length).toBeGreaterThan(2);
    expect(Buffer.concat(slices).equals(whole)).toBe(true);
    expect(versions.size).toBe(1);
    expect((await getDocumentChunk(deps, { ...request, offset: whole.length, length: 10 })).content_base64).toBe("");
  });

  it("refuses like a whole download: not complete, not found, not the caller's", async () => {
    const chunk = (caller: FilingRpcCaller, filing: SeededFiling, type: DocumentType) =>
      failure(getDocumentChunk(deps, { caller, filing_id: filing.id, document_type: type, offset: 0, length: 100 }));
    expect((await chunk(owner, rejected, "ct600_pdf")).code).toBe("FILING_NOT_COMPLETE");
    expect((await chunk(owner, single, "accounts_pdf")).code).toBe("DOCUMENT_NOT_FOUND");
    expect((await chunk(stranger, single, "ct600_pdf")).code).toBe("FILING_NOT_FOUND");
  });
});
