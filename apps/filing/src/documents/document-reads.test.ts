import { type AppError, DocumentsList, type DocumentType, type FilingRpcCaller } from "@dormant/contracts";
import { checkIxbrlConsistency } from "@dormant/documents";
import { createLogger } from "@dormant/service-kit";
import type { TestDatabase } from "@dormant/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilingDb, type FilingDb } from "../db/client.ts";
import { createFilingTestDatabase } from "../test-support/test-database.ts";
import { accountScope, keyScope } from "../state/filing-scope.ts";
import { recordTaxPartSubmitted } from "../submit/record-submission.ts";
import { readPdf } from "../testing/read-pdf.ts";
import {
  acceptSeededAccounts,
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
    (await getDocument(deps, keyScope(owner), { filing_id: filing.id, document_type: type, ...(part ? { part } : {}) })).content_base64,
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
  await acceptSeededAccounts(db, accounts);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("filing.list_documents", () => {
  it("renders the CT600 PDF a read finds missing, once, and lists it beside the XML as filed", async () => {
    const list = await listDocuments(deps, keyScope(owner), single.id);
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
    expect(await listDocuments(deps, keyScope(owner), single.id)).toEqual(list);
    expect(rendered.filter((r) => r.type === "ct600_pdf")).toHaveLength(1);
  });

  it("lists a split CT600's two returns under distinct names, a PDF and an XML each", async () => {
    const list = await listDocuments(deps, keyScope(owner), split.id);
    expect(list.documents.map((d) => [d.type, d.name])).toEqual([
      ["ct600_pdf", `${split.id}-ct600-part1.pdf`],
      ["ct600_pdf", `${split.id}-ct600-part2.pdf`],
      ["ct600_xml", `${split.id}-ct600-part1.xml`],
      ["ct600_xml", `${split.id}-ct600-part2.xml`],
    ]);
  });

  it("lists the accounts' iXBRL and renders their PDF from the stored facts", async () => {
    const list = await listDocuments(deps, keyScope(owner), accounts.id);
    expect(list.documents.map((d) => [d.type, d.name])).toEqual([
      ["ixbrl_accounts", "00000001-accounts.xhtml"],
      ["accounts_pdf", "00000001-accounts-2026-03-31.pdf"],
    ]);
  });

  it("is FILING_NOT_COMPLETE before acceptance and FILING_NOT_FOUND for another key", async () => {
    expect((await failure(listDocuments(deps, keyScope(owner), rejected.id))).code).toBe("FILING_NOT_COMPLETE");
    expect((await failure(listDocuments(deps, keyScope(stranger), single.id))).code).toBe("FILING_NOT_FOUND");
    expect((await failure(listDocuments(deps, keyScope(owner), "fil_nothinghere"))).code).toBe("FILING_NOT_FOUND");
    expect(await db.document.count({ where: { filingId: rejected.id, type: "ct600_pdf" } })).toBe(0);
  });
});

describe("filing.get_document", () => {
  it("serves a CT600 return's PDF with its company, UTR, period, declarant, IRmark and receipt", async () => {
    const document = await getDocument(deps, keyScope(owner), { filing_id: single.id, document_type: "ct600_pdf" });
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
      failure(getDocument(deps, keyScope(caller), { filing_id: filing.id, document_type: type, ...(part ? { part } : {}) }));
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
    expect((await listDocuments(deps, keyScope(owner), early.id)).documents).toEqual([]);
    expect((await failure(getDocument(deps, keyScope(owner), { filing_id: early.id, document_type: "ct600_pdf" }))).code).toBe(
      "DOCUMENT_NOT_FOUND",
    );
    await recordTaxPartSubmitted(db, early.id, 1, submitAnswer(early.correlationIds[0]!), "late");
    expect((await listDocuments(deps, keyScope(owner), early.id)).documents.map((d) => d.type)).toEqual(["ct600_pdf", "ct600_xml"]);
  });
});

describe("filing.get_document_chunk", () => {
  it("hands out slices that add up to the whole document, each naming its size and version", async () => {
    const whole = await bytesOf(accounts, "accounts_pdf");
    const request = { filing_id: accounts.id, document_type: "accounts_pdf" as const };
    const slices: Buffer[] = [];
    const versions = new Set<string>();
    for (let offset = 0; offset < whole.length; offset += 4096) {
      const chunk = await getDocumentChunk(deps, keyScope(owner), { ...request, offset, length: 4096 });
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
    expect((await getDocumentChunk(deps, keyScope(owner), { ...request, offset: whole.length, length: 10 })).content_base64).toBe("");
  });

  it("refuses like a whole download: not complete, not found, not the caller's", async () => {
    const chunk = (caller: FilingRpcCaller, filing: SeededFiling, type: DocumentType) =>
      failure(getDocumentChunk(deps, keyScope(caller), { filing_id: filing.id, document_type: type, offset: 0, length: 100 }));
    expect((await chunk(owner, rejected, "ct600_pdf")).code).toBe("FILING_NOT_COMPLETE");
    expect((await chunk(owner, single, "accounts_pdf")).code).toBe("DOCUMENT_NOT_FOUND");
    expect((await chunk(stranger, single, "ct600_pdf")).code).toBe("FILING_NOT_FOUND");
  });
});

describe("the account's reads (filing.account_list_documents, filing.account_get_document_chunk)", () => {
  const account = accountScope({ account_id: owner.account_id, request_id: "req" });

  it("serves another key's filing of the account as that key's reads do, its PDF rendered on request", async () => {
    const secondKey: FilingRpcCaller = { ...owner, key_id: "key_docs_second" };
    const theirs = await seedCt600Filing(db, 1, { accountId: owner.account_id, keyId: secondKey.key_id, companyNumber: "00000009" });
    await accept(theirs, 1);
    const renders = rendered.length;
    const list = await listDocuments(deps, account, theirs.id);
    expect(list.documents.map((d) => [d.type, d.name])).toEqual([
      ["ct600_pdf", `${theirs.id}-ct600.pdf`],
      ["ct600_xml", `${theirs.id}-ct600.xml`],
    ]);
    expect(rendered.slice(renders)).toEqual([{ type: "ct600_pdf", trigger: "request" }]);
    expect(await listDocuments(deps, keyScope(secondKey), theirs.id)).toEqual(list);
    // Not the first key's: the key-scoped reads stay the key's own.
    expect((await failure(listDocuments(deps, keyScope(owner), theirs.id))).code).toBe("FILING_NOT_FOUND");

    const whole = await getDocument(deps, keyScope(secondKey), { filing_id: theirs.id, document_type: "ct600_pdf" });
    const first = await getDocumentChunk(deps, account, { filing_id: theirs.id, document_type: "ct600_pdf", offset: 0, length: 1000 });
    expect(first).toMatchObject({ file_name: `${theirs.id}-ct600.pdf`, total_bytes: list.documents[0]!.size_bytes, offset: 0 });
    expect(Buffer.from(first.content_base64, "base64").equals(Buffer.from(whole.content_base64, "base64").subarray(0, 1000))).toBe(true);
  });

  it("is FILING_NOT_COMPLETE before acceptance, and FILING_NOT_FOUND for another account's filing exactly as for an unknown one", async () => {
    expect((await failure(listDocuments(deps, account, rejected.id))).code).toBe("FILING_NOT_COMPLETE");
    const elsewhere = await seedCt600Filing(db, 1, { accountId: "acc_docs_elsewhere", keyId: owner.key_id });
    await accept(elsewhere, 1);
    const chunk = (filingId: string) =>
      failure(getDocumentChunk(deps, account, { filing_id: filingId, document_type: "ct600_xml", offset: 0, length: 100 }));
    for (const read of [(id: string) => failure(listDocuments(deps, account, id)), chunk]) {
      const foreign = await read(elsewhere.id);
      const unknown = await read("fil_nothinghere");
      expect([foreign.code, foreign.message]).toEqual(["FILING_NOT_FOUND", "No filing with this id for this account"]);
      expect([unknown.code, unknown.message]).toEqual([foreign.code, foreign.message]);
    }
  });
});
