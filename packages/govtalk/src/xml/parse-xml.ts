import { DOMParser } from "@xmldom/xmldom";
import type { Document } from "@xmldom/xmldom";
import { GovTalkXmlError } from "../errors.ts";
import { installXmldomRegExpCache } from "./xmldom-regexp-cache.ts";

/** Whether xmldom's per-end-tag regular expressions are built once (see xmldom-regexp-cache.ts). */
export const XMLDOM_REGEXP_CACHE = installXmldomRegExpCache();

function firstLine(text: string): string {
  return text.split("\n")[0]?.trim() ?? text;
}

/**
 * Parses XML strictly: any well-formedness error (not only the fatal ones @xmldom/xmldom stops
 * on) throws a GovTalkXmlError, nothing is printed to the console, and a document type
 * declaration is refused (neither authority uses one; refusing it rules out entity tricks).
 */
export function parseXml(xml: string): Document {
  let problem: string | undefined;
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level === "warning") return;
      problem ??= firstLine(message);
      throw new GovTalkXmlError(`malformed XML: ${problem}`);
    },
  });
  let document: Document;
  try {
    document = parser.parseFromString(xml, "text/xml");
  } catch (error) {
    const message = problem ?? firstLine(error instanceof Error ? error.message : String(error));
    throw new GovTalkXmlError(`malformed XML: ${message}`);
  }
  if (document.doctype) throw new GovTalkXmlError("malformed XML: a DOCTYPE is not accepted");
  if (!document.documentElement) throw new GovTalkXmlError("malformed XML: no root element");
  return document;
}
