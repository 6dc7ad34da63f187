import { describe, expect, it } from "vitest";
import { readPdf } from "../test-support/read-pdf.ts";
import { renderCt600Pdf } from "./render-ct600-pdf.ts";
import { FONT } from "./fonts.ts";
import { createPdfDocument, MAX_SHARED_LAYOUTS, parsedFaceCount } from "./shared-faces.ts";
import type { Ct600PdfInput } from "./pdf-inputs.ts";

function sandboxReturn(companyName: string, declarantName: string): Ct600PdfInput {
  return {
    companyName,
    companyNumber: "SC000001",
    utr: "8596148860",
    periodStart: "2024-10-01",
    periodEnd: "2025-09-30",
    declarantName,
    declarantStatus: "Director",
    irmark: "YrgW02ybxWOff7gHrELynhp1gRw=",
    generatedAt: "2026-09-29T08:15:00Z",
    sandbox: true,
  };
}

// Vitest gives each test file its own module registry: the first document rendered here parses
// the faces (pdfkit's own path), every later one uses the faces kept by shared-faces.ts.
describe("DejaVu faces parsed once per process", () => {
  it("renders a document with shared faces byte for byte like the one that parsed them", async () => {
    expect(parsedFaceCount()).toBe(0);
    const input = sandboxReturn("Société Générale & <Ørsted> Zoë Ltd", "Zoë Ørsted-Smith");
    const first = await renderCt600Pdf(input);
    expect(parsedFaceCount()).toBe(3);
    const second = await renderCt600Pdf(input);
    expect(Buffer.compare(first, second)).toBe(0);
    expect(parsedFaceCount()).toBe(3);
  });

  it("keeps each document's embedded glyph subset its own", async () => {
    // Different characters, rendered one after the other over the same faces: each PDF embeds the
    // glyphs it uses and its text extracts exactly (a subset shared between documents would lose
    // or mix glyphs).
    const welsh = await renderCt600Pdf(sandboxReturn("Ŵyn Ŷr Cyf", "Siân Ŵyn"));
    const polish = await renderCt600Pdf(sandboxReturn("Łódź Żółć sp. Ltd", "Józef Łęcki"));
    const [welshText, polishText] = await Promise.all([readPdf(welsh), readPdf(polish)]);
    expect(welshText.text).toContain("Company name Ŵyn Ŷr Cyf");
    expect(welshText.text).toContain("Siân Ŵyn");
    expect(welshText.text).not.toContain("Łódź");
    expect(polishText.text).toContain("Company name Łódź Żółć sp. Ltd");
    expect(polishText.text).toContain("Józef Łęcki");
    expect(parsedFaceCount()).toBe(3);
  });

  it("gives every document a font object over the same parsed face", () => {
    // Identity, not timing: a regression to per-document parsing gives each document its own face.
    const faceOf = (doc: PDFKit.PDFDocument, file: string) => (doc.font(file) as unknown as { _font: { font: object } })._font.font;
    const first = createPdfDocument({ font: FONT.regular });
    const second = createPdfDocument({ font: FONT.regular });
    for (const file of Object.values(FONT)) expect(faceOf(second, file)).toBe(faceOf(first, file));
    expect(parsedFaceCount()).toBe(3);
  });

  it("shares laid-out words between documents without changing a byte of them", async () => {
    const cacheOf = (doc: PDFKit.PDFDocument, file: string) =>
      (doc.font(file) as unknown as { _font: { layoutCache: object } })._font.layoutCache;
    for (const file of Object.values(FONT))
      expect(cacheOf(createPdfDocument({ font: FONT.regular }), file)).toBe(cacheOf(createPdfDocument({ font: FONT.regular }), file));
    // Laid out while other documents filled the cache with other words, a document comes out the same.
    const welsh = sandboxReturn("Ŵyn Ŷr Cyf", "Siân Ŵyn");
    const before = await renderCt600Pdf(welsh);
    await renderCt600Pdf(sandboxReturn("Łódź Żółć sp. Ltd", "Józef Łęcki"));
    await renderCt600Pdf(sandboxReturn("Ŵyn Ŷr Cyf Wales", "Siân Ŵyn-Jones"));
    expect(Buffer.compare(await renderCt600Pdf(welsh), before)).toBe(0);
  });

  it("bounds the shared layouts: a full cache starts afresh", () => {
    const cacheOf = (doc: PDFKit.PDFDocument) => (doc as unknown as { _font: { layoutCache: object } })._font.layoutCache;
    const filler = createPdfDocument({ font: FONT.regular });
    const full = cacheOf(filler);
    for (let word = 0; word <= MAX_SHARED_LAYOUTS; word++) filler.widthOfString(`word${word}`);
    expect(Object.keys(full).length).toBeGreaterThan(MAX_SHARED_LAYOUTS);
    // Its size is looked at every few documents, not at each one.
    const caches = Array.from({ length: 64 }, () => cacheOf(createPdfDocument({ font: FONT.regular })));
    const fresh = caches.at(-1)!;
    expect(fresh).not.toBe(full);
    expect(Object.keys(fresh).length).toBe(0);
    expect(cacheOf(createPdfDocument({ font: FONT.regular }))).toBe(fresh);
  });
});
