import { DEVELOPMENT_SEALING_KEY, FILING_RPC_QUEUE, isAppError, sealingKeyFromBase64, type DocumentType } from "@dormant/contracts";
import { readPdf, startFilingHarness, type FilingHarness } from "@dormant/filing/testing";
import { checkIxbrlConsistency } from "@dormant/documents";
import { computeIRmark, PASSWORD_MASK, validateCt600Body } from "@dormant/govtalk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBusFilingBackend } from "../filing-backend/bus-filing-backend.ts";
import { download } from "../test-support/download.ts";
import { accountsBody, ct600Body, get, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// Live downloads end to end: the gateway as production wires it (with 4 KiB download slices, so
// every document spans several), the real filing service, billing, both submitters and the
// authority simulator, on real Postgres, Redis and RabbitMQ. Filings are submitted through the
// gateway with a live key and accepted by the simulator.
const CHUNK = 4096;
let h: FilingHarness;
let gw: TestGateway;
let otherLiveKey: string;
const ids = {} as Record<"single" | "split" | "accounts" | "rejected", string>;

const path = (filing: keyof typeof ids, type: DocumentType | "", query = "") =>
  `/filings/${ids[filing]}/documents${type ? `/${type}` : ""}${query}`;
/** The document as the filing service holds it, in one piece. */
const stored = async (filing: keyof typeof ids, type: DocumentType, part?: number) =>
  Buffer.from(
    (
      await h.peer.rpcCall(FILING_RPC_QUEUE, "filing.get_document", {
        caller: {
          account_id: gw.account.accountId,
          key_id: (await gw.db.apiKey.findFirstOrThrow({ where: { accountId: gw.account.accountId, mode: "live" } })).keyId,
          mode: "live",
          request_id: "test",
        },
        filing_id: ids[filing],
        document_type: type,
        ...(part ? { part } : {}),
      })
    ).content_base64,
    "base64",
  );

beforeAll(async () => {
  h = await startFilingHarness("gw_documents", { billing: true, taxSubmitter: true, registrySubmitter: true });
  gw = await createTestGateway({ label: "get_document_live", amqpUrl: h.vhost.url, settings: { documentChunkBytes: CHUNK } });
  await h.openAccount(100_000, gw.account.accountId);
  otherLiveKey = (await gw.createAccount()).liveKey;
  const submitted = await Promise.all([
    submit(gw.app, "ct600", gw.account.liveKey, ct600Body({ period_end: "2026-03-31" })),
    // 00000005's first period, to 2026-10-31, is longer than 12 months: two returns.
    submit(gw.app, "ct600", gw.account.liveKey, ct600Body({ company_number: "00000005", period_end: "2026-10-31" })),
    submit(gw.app, "accounts", gw.account.liveKey, accountsBody({ period_end: "2026-03-31", approval: { date: "2026-05-01" } })),
    submit(gw.app, "ct600", gw.account.liveKey, ct600Body({ company_number: "00000002", period_end: "2026-09-30" })),
  ]);
  for (const [index, name] of (["single", "split", "accounts", "rejected"] as const).entries()) {
    expect(submitted[index]!.status).toBe(202);
    ids[name] = submitted[index]!.body.data.filing_id;
  }
  for (const name of ["single", "split", "accounts", "rejected"] as const) {
    expect((await h.waitForEvent(ids[name], 15_000)).type).toBe(name === "rejected" ? "filing.rejected" : "filing.accepted");
  }
}, 90_000);
afterAll(async () => {
  await gw?.close();
  await h?.teardown();
});

describe("GET /filings/{id}/documents (live)", () => {
  it("lists an accepted filing's documents with their sizes, names and generation times", async () => {
    const response = await get(gw.app, path("single", ""), gw.account.liveKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        filing_id: ids.single,
        documents: [
          { type: "ct600_pdf", name: `${ids.single}-ct600.pdf`, size_bytes: expect.any(Number), generated_at: expect.any(String) },
          { type: "ct600_xml", name: `${ids.single}-ct600.xml`, size_bytes: expect.any(Number), generated_at: expect.any(String) },
        ],
      },
    });
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
  });

  it("lists both returns of a split filing under distinct names", async () => {
    const response = await get(gw.app, path("split", ""), gw.account.liveKey);
    expect(response.body.data.documents.map((d: { name: string }) => d.name)).toEqual([
      `${ids.split}-ct600-part1.pdf`,
      `${ids.split}-ct600-part2.pdf`,
      `${ids.split}-ct600-part1.xml`,
      `${ids.split}-ct600-part2.xml`,
    ]);
  });
});

describe("GET /filings/{id}/documents/{type} (live)", () => {
  it("streams a PDF larger than one slice with its media type, length and file name", async () => {
    const listed = (await get(gw.app, path("single", ""), gw.account.liveKey)).body.data.documents[0];
    const response = await download(gw.app, path("single", "ct600_pdf"), gw.account.liveKey);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="${listed.name}"`);
    expect(Number(response.headers["content-length"])).toBe(listed.size_bytes);
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
    expect(listed.size_bytes).toBeGreaterThan(3 * CHUNK);
    expect(response.bytes.equals(await stored("single", "ct600_pdf"))).toBe(true);
    const pdf = await readPdf(response.bytes);
    expect(pdf.pages).toHaveLength(2);
    expect(pdf.pages[0]).toContain("LOVELACE ENGINES LIMITED");
    expect(pdf.pages[0]).toContain("00000001");
    expect(pdf.pages[0]).toContain("Accepted by HMRC on");
  });

  it("serves the CT600 XML as filed: schema-valid, IRmark intact, password masked", async () => {
    const response = await download(gw.app, path("single", "ct600_xml"), gw.account.liveKey);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml");
    const xml = response.bytes.toString("utf8");
    expect(await validateCt600Body(xml)).toEqual({ valid: true, errors: [] });
    expect(/<IRmark Type="generic">([^<]+)<\/IRmark>/.exec(xml)?.[1]).toBe(computeIRmark(xml).base64);
    expect(xml).toContain(`<Value>${PASSWORD_MASK}</Value>`);
    expect(xml).not.toContain("correct horse battery staple");
  });

  it("serves the accounts as iXBRL and as a PDF", async () => {
    const ixbrl = await download(gw.app, path("accounts", "ixbrl_accounts"), gw.account.liveKey);
    expect(ixbrl.status).toBe(200);
    expect(ixbrl.headers["content-type"]).toBe("application/xhtml+xml");
    expect(ixbrl.headers["content-disposition"]).toBe('attachment; filename="00000001-20260331.xhtml"');
    expect(checkIxbrlConsistency(ixbrl.bytes.toString("utf8")).problems).toEqual([]);
    const pdf = await download(gw.app, path("accounts", "accounts_pdf"), gw.account.liveKey);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.bytes.equals(await stored("accounts", "accounts_pdf"))).toBe(true);
    const text = await readPdf(pdf.bytes);
    expect(text.pages).toHaveLength(3);
    expect(text.pages[0]).toContain("LOVELACE ENGINES LIMITED");
    expect(text.pages[0]).toContain("00000001");
  });

  it("downloads part 2 of a split CT600 with ?part=2, part 1 without", async () => {
    const xml2 = await download(gw.app, path("split", "ct600_xml", "?part=2"), gw.account.liveKey);
    expect(xml2.status).toBe(200);
    expect(xml2.headers["content-disposition"]).toBe(`attachment; filename="${ids.split}-ct600-part2.xml"`);
    expect(xml2.bytes.toString("utf8")).toContain("<From>2026-05-12</From>");
    expect(await validateCt600Body(xml2.bytes.toString("utf8"))).toEqual({ valid: true, errors: [] });
    const pdf2 = await download(gw.app, path("split", "ct600_pdf", "?part=2"), gw.account.liveKey);
    expect(pdf2.headers["content-disposition"]).toBe(`attachment; filename="${ids.split}-ct600-part2.pdf"`);
    expect((await readPdf(pdf2.bytes)).pages[0]).toContain("Part 2 of 2");
    const pdf1 = await download(gw.app, path("split", "ct600_pdf"), gw.account.liveKey);
    expect(pdf1.headers["content-disposition"]).toBe(`attachment; filename="${ids.split}-ct600-part1.pdf"`);
    expect((await readPdf(pdf1.bytes)).pages[0]).toContain("Part 1 of 2");
  });

  it("answers every refusal in the error envelope, before any byte", async () => {
    const refused = async (url: string, key: string, status: number, code: string) => {
      const response = await download(gw.app, url, key);
      expect(response.status, url).toBe(status);
      expect(response.json, url).toMatchObject({ success: false, error: { code }, request_id: response.headers["x-request-id"] });
      for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
    };
    await refused(path("rejected", ""), gw.account.liveKey, 400, "FILING_NOT_COMPLETE");
    await refused(path("rejected", "ct600_pdf"), gw.account.liveKey, 400, "FILING_NOT_COMPLETE");
    await refused(path("single", "accounts_pdf"), gw.account.liveKey, 404, "DOCUMENT_NOT_FOUND");
    await refused(path("accounts", "ct600_xml"), gw.account.liveKey, 404, "DOCUMENT_NOT_FOUND");
    await refused(path("single", "ct600_xml", "?part=2"), gw.account.liveKey, 404, "DOCUMENT_NOT_FOUND");
    await refused(`/filings/${ids.single}/documents/vat_return`, gw.account.liveKey, 400, "VALIDATION_ERROR");
    await refused(path("single", "ct600_pdf"), otherLiveKey, 404, "FILING_NOT_FOUND");
    await refused(path("single", ""), otherLiveKey, 404, "FILING_NOT_FOUND");
    await refused(path("single", "ct600_pdf"), gw.account.testKey, 404, "FILING_NOT_FOUND");
  });
});

describe("the live backend's streamed download", () => {
  const backend = () =>
    createBusFilingBackend({
      bus: gw.bus,
      sealingKey: sealingKeyFromBase64(DEVELOPMENT_SEALING_KEY.id, DEVELOPMENT_SEALING_KEY.base64),
      documentChunkBytes: CHUNK,
    });
  const caller = async () => ({
    accountId: gw.account.accountId,
    keyId: (await gw.db.apiKey.findFirstOrThrow({ where: { accountId: gw.account.accountId, mode: "live" } })).keyId,
    mode: "live" as const,
    requestId: "3f0c1b7e-2f4d-4c59-9a4e-8d7a1c0b5e21",
  });

  it("fetches the document in slices of the configured size, the last one shorter", async () => {
    const document = await backend().openDocument(await caller(), ids.accounts, "accounts_pdf", undefined);
    const sizes: number[] = [];
    for await (const chunk of document.chunks) sizes.push(chunk.length);
    expect(sizes.length).toBe(Math.ceil(document.sizeBytes / CHUNK));
    expect(sizes.slice(0, -1).every((size) => size === CHUNK)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(document.sizeBytes);
  });

  it("ends the download with an error rather than splice two versions of a document", async () => {
    const document = await backend().openDocument(await caller(), ids.single, "ct600_pdf", undefined);
    const chunks = (document.chunks as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    expect((await chunks.next()).value).toHaveLength(CHUNK);
    // The stored PDF disappears mid-download (as if removed by hand): the next slice comes from a
    // copy rendered again, at another time.
    await h.service.db.document.deleteMany({ where: { filingId: ids.single, type: "ct600_pdf" } });
    const error = await chunks.next().then(
      () => expect.fail("the download went on"),
      (e: unknown) => e,
    );
    expect(isAppError(error) && error.code).toBe("INTERNAL_ERROR");
  });
});
