import { extractText, getDocumentProxy } from "unpdf";

/** A PDF as a reader gets it (PDF.js through unpdf): its pages' text, whitespace runs collapsed. */
export interface PdfText {
  readonly pages: readonly string[];
  readonly text: string;
}

/** Test support: parses a PDF and extracts the text of every page, to assert on content. */
export async function readPdf(bytes: Uint8Array): Promise<PdfText> {
  // PDF.js takes ownership of the buffer it is given; hand it a copy.
  const document = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(document, { mergePages: false });
    const pages = text.map((page) => page.replace(/\s+/g, " ").trim());
    return { pages, text: pages.join(" ") };
  } finally {
    await document.destroy();
  }
}
