import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DormantClient } from "./client.ts";
import { filenameOf } from "./documents.ts";
import { errorEnvelope, ScriptedServer, successEnvelope } from "./test-support/scripted-server.ts";

describe("documents against a real HTTP server", () => {
  let server: ScriptedServer;
  let client: DormantClient;
  beforeAll(async () => {
    server = await ScriptedServer.start();
    client = new DormantClient({ apiKey: "api_live_k_s", baseUrl: server.baseUrl, retry: { maxAttempts: 1 } });
  });
  afterAll(() => server?.close());

  it("downloads the bytes as sent, with the server's file name and media type, asking for a part", async () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    server.answer({
      status: 200,
      headers: { "content-type": "application/pdf", "content-disposition": 'attachment; filename="ct600-00000001-2026-03-31-part2.pdf"' },
      body: bytes,
    });
    const document = await client.documents.download("fil_1", "ct600_pdf", { part: 2 });
    expect(server.received[0]!.url).toBe("/api/v1/filings/fil_1/documents/ct600_pdf?part=2");
    expect(document).toEqual({ bytes, filename: "ct600-00000001-2026-03-31-part2.pdf", mediaType: "application/pdf" });
  });

  it("names a document without Content-Disposition after the filing and type", async () => {
    server.answer({ status: 200, headers: { "content-type": "application/xml; charset=utf-8" }, body: "<x/>" });
    expect(await client.documents.download("fil_1", "ct600_xml")).toMatchObject({
      filename: "fil_1-ct600_xml",
      mediaType: "application/xml",
    });
    expect(server.received[0]!.url).toBe("/api/v1/filings/fil_1/documents/ct600_xml");
  });

  it("throws the envelope of a failed download", async () => {
    server.answer({ status: 400, body: errorEnvelope("FILING_NOT_COMPLETE", "Filing not accepted yet") });
    await expect(client.documents.download("fil_1", "accounts_pdf")).rejects.toMatchObject({ status: 400, code: "FILING_NOT_COMPLETE" });
  });

  it("lists the documents", async () => {
    const list = {
      filing_id: "fil_1",
      documents: [{ type: "ct600_pdf", name: "a.pdf", size_bytes: 10, generated_at: "2026-11-27T12:00:00Z" }],
    };
    server.answer({ status: 200, body: successEnvelope(list) });
    expect(await client.documents.list("fil_1")).toEqual(list);
  });

  it("reads plain and extended file names", () => {
    expect(filenameOf('attachment; filename="a b.pdf"')).toBe("a b.pdf");
    expect(filenameOf("attachment; filename=a.xml")).toBe("a.xml");
    expect(filenameOf("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf")).toBe("résumé.pdf");
    expect(filenameOf(null)).toBeUndefined();
  });
});
