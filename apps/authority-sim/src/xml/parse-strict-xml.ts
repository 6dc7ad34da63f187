import { DOMParser, type Document } from "@xmldom/xmldom";

/**
 * Parses XML strictly: any error or fatal error from the parser (not only the ones it stops
 * on) throws, and nothing is printed. Callers refuse DOCTYPEs before parsing (see declaresDoctype).
 */
export function parseStrictXml(xml: string): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") throw new Error(message.trim().split("\n")[0] ?? "malformed XML");
    },
  });
  const document = parser.parseFromString(xml, "text/xml");
  if (!document.documentElement) throw new Error("no root element");
  return document;
}
