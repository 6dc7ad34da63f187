import { checkIxbrlConsistency, readIxbrl } from "@dormant/documents";
import { readPdf } from "@dormant/filing/testing";
import { computeIRmark, PASSWORD_MASK, validateCt600Body } from "@dormant/govtalk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download } from "../test-support/download.ts";
import { accountsBody, ct600Body, get, RATE_LIMIT_HEADERS, submit } from "../test-support/requests.ts";
import { createTestGateway, type TestGateway } from "../test-support/test-gateway.ts";

// A live accepted filing's downloads are tested against the real filing service
// (get-document.live.test.ts); these are the sandbox's samples, rendered on request.
describe("GET /filings/{filing_id}/documents/{type} for sandbox filings", () => {
  let gw: TestGateway;
  let ct600Id: string;
  let accountsId: string;
  beforeAll(async () => {
    gw = await createTestGateway({ label: "get_document_happy" });
    ct600Id = (await submit(gw.app, "ct600", gw.account.testKey, ct600Body())).body.data.filing_id;
    accountsId = (await submit(gw.app, "accounts", gw.account.testKey, accountsBody({ company_number: "SC000001" }))).body.data.filing_id;
  });
  afterAll(() => gw?.close());

  const listed = async (filingId: string, type: string) =>
    (await get(gw.app, `/filings/${filingId}/documents`, gw.account.testKey)).body.data.documents.find(
      (d: { type: string }) => d.type === type,
    );

  it("ct600_xml: a schema-valid sample return with a real IRmark, a masked dummy password, marked SANDBOX", async () => {
    const response = await download(gw.app, `/filings/${ct600Id}/documents/ct600_xml`, gw.account.testKey);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="${ct600Id}-ct600.xml"`);
    expect(Number(response.headers["content-length"])).toBe(response.bytes.length);
    for (const header of RATE_LIMIT_HEADERS) expect(response.headers[header]).toMatch(/^\d+$/);
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const xml = response.bytes.toString("utf8");
    expect(await validateCt600Body(xml)).toEqual({ valid: true, errors: [] });
    expect(/<IRmark Type="generic">([^<]+)<\/IRmark>/.exec(xml)?.[1]).toBe(computeIRmark(xml).base64);
    expect(xml).toContain(`<Value>${PASSWORD_MASK}</Value>`);
    expect(xml).toContain("<GatewayTest>1</GatewayTest>");
    expect(xml).toContain("<!-- SANDBOX:");
    expect(xml).toContain("<RegistrationNumber>00000001</RegistrationNumber>");
    expect((await listed(ct600Id, "ct600_xml")).size_bytes).toBe(response.bytes.length);
  });

  it("ct600_pdf: the sample return as a PDF, every page marked SANDBOX, with the reference a poll shows", async () => {
    const response = await download(gw.app, `/filings/${ct600Id}/documents/ct600_pdf`, gw.account.testKey);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="${ct600Id}-ct600.pdf"`);
    const pdf = await readPdf(response.bytes);
    expect(pdf.pages).toHaveLength(2);
    for (const page of pdf.pages) expect(page).toContain("SANDBOX");
    expect(pdf.pages[0]).toContain("SANDBOX SAMPLE COMPANY LIMITED");
    expect(pdf.pages[0]).toContain("00000001");
    expect(pdf.pages[0]).toContain("Sandbox: not filed with HMRC");
    const poll = (await get(gw.app, `/filings/${ct600Id}`, gw.account.testKey)).body.data;
    expect(pdf.pages[1]).toContain(poll.tax_correlation_id);
    // Rendered from the id alone: the same bytes on every download, and the size the list shows.
    const again = await download(gw.app, `/filings/${ct600Id}/documents/ct600_pdf`, gw.account.testKey);
    expect(again.bytes.equals(response.bytes)).toBe(true);
    expect((await listed(ct600Id, "ct600_pdf")).size_bytes).toBe(response.bytes.length);
  });

  it("ixbrl_accounts and accounts_pdf: consistent sample accounts for the company of the id, marked SANDBOX", async () => {
    const ixbrl = await download(gw.app, `/filings/${accountsId}/documents/ixbrl_accounts`, gw.account.testKey);
    expect(ixbrl.status).toBe(200);
    expect(ixbrl.headers["content-type"]).toBe("application/xhtml+xml");
    const xml = ixbrl.bytes.toString("utf8");
    expect(xml).toContain("<!-- SANDBOX:");
    expect(checkIxbrlConsistency(xml).problems).toEqual([]);
    const reading = readIxbrl(xml);
    const contexts = new Set(reading.contexts.map((c) => c.id));
    const units = new Set(reading.units.map((u) => u.id));
    for (const fact of reading.facts) {
      expect(contexts.has(fact.contextRef!)).toBe(true);
      if (fact.kind === "nonFraction") expect(units.has(fact.unitRef!)).toBe(true);
    }
    expect(reading.contexts.every((c) => c.identifier === "SC000001")).toBe(true);

    const pdf = await download(gw.app, `/filings/${accountsId}/documents/accounts_pdf?part=1`, gw.account.testKey);
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-disposition"]).toBe(`attachment; filename="${accountsId}-accounts.pdf"`);
    const text = await readPdf(pdf.bytes);
    expect(text.pages).toHaveLength(3);
    for (const page of text.pages) expect(page).toContain("SANDBOX");
    expect(text.pages[0]).toContain("SANDBOX SAMPLE COMPANY LIMITED");
    expect(text.pages[0]).toContain("SC000001");
    expect(text.pages[0]).toContain("Scotland");
  });

  it("has no second part: sandbox returns are never split", async () => {
    const response = await download(gw.app, `/filings/${ct600Id}/documents/ct600_xml?part=2`, gw.account.testKey);
    expect(response.status).toBe(404);
    expect(response.json.error.code).toBe("DOCUMENT_NOT_FOUND");
  });
});
