import { DOMParser } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { escapeXml, findIllegalXmlChar, XmlCharacterError } from "./escape-xml.ts";

function roundTrip(text: string): string | null | undefined {
  const xml = `<r a="${escapeXml(text)}" b='${escapeXml(text)}'>${escapeXml(text)}</r>`;
  const root = new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(xml, "application/xml").documentElement;
  expect(root?.getAttribute("a")).toBe(text);
  expect(root?.getAttribute("b")).toBe(text);
  return root?.textContent;
}

describe("escapeXml", () => {
  it("escapes markup characters and writes everything outside printable ASCII as character references", () => {
    expect(escapeXml(`A & B <C> "D" 'E'`)).toBe("A &amp; B &lt;C&gt; &quot;D&quot; &#39;E&#39;");
    expect(escapeXml("Caf\u00e9 \u00a3 \u{1d518}")).toBe("Caf&#233; &#163; &#120088;");
    expect(escapeXml("a\tb\nc\rd")).toBe("a&#9;b&#10;c&#13;d");
  });

  it("round-trips any legal text through an XML parser, in text and in attributes", () => {
    for (const text of [
      "O'Brien & Sons <Ltd>",
      "Zo\u00eb \u00dcnal \u2013 \u{1f600}",
      "]]> & &amp; literally",
      "line\r\nbreak\ttab  spaces ",
    ]) {
      expect(roundTrip(text)).toBe(text);
    }
  });

  it("refuses characters XML cannot carry", () => {
    expect(() => escapeXml("bad\u0000")).toThrow(XmlCharacterError);
    expect(() => escapeXml("lone \ud800 surrogate")).toThrow(/U\+D800/);
    expect(findIllegalXmlChar("fine \u{10ffff}")).toBeUndefined();
    expect(findIllegalXmlChar("not \ufffe")).toBe(0xfffe);
  });
});
