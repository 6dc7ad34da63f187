import { extractText, getDocumentProxy, getMeta } from "unpdf";

/** What a reader gets out of a PDF, parsed by PDF.js (through unpdf): for content assertions in tests. */
export interface PdfReading {
  /** The text of each page, whitespace runs (line breaks included) collapsed to one space. */
  readonly pages: readonly string[];
  /** Every page's text, joined by a space. */
  readonly text: string;
  /** The document information dictionary: Title, Author, Subject, CreationDate (`D:...`), ... */
  readonly info: Readonly<Record<string, unknown>>;
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  // PDF.js takes ownership of the buffer it is given; hand it a copy.
  const document = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(document, { mergePages: false });
    const { info } = await getMeta(document);
    const pages = text.map(collapse);
    return { pages, text: pages.join(" "), info };
  } finally {
    await document.destroy();
  }
}

/** How many times `needle` occurs in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}
