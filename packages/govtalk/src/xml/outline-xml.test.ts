import { describe, expect, it } from "vitest";
import { GovTalkXmlError } from "../errors.ts";
import { loadXmlOutliner } from "./outline-xml.ts";
import { parseXml } from "./parse-xml.ts";

const IX = "http://www.xbrl.org/2013/inlineXBRL";
const XHTML = "http://www.w3.org/1999/xhtml";
const picks = [
  { namespace: IX, localName: "header" },
  { namespace: IX, localName: "nonNumeric" },
];

describe("loadXmlOutliner", () => {
  it("reads the root and the picked elements (attributes without a namespace, text content)", async () => {
    const outline = await loadXmlOutliner();
    const xml =
      `<html xmlns="${XHTML}" xmlns:ix="${IX}" xmlns:x="urn:x"><head><ix:header/></head><body>` +
      '<ix:nonNumeric name="bus:UKCompaniesHouseRegisteredNumber" x:other="1" contextRef="c">0000<b>0001</b></ix:nonNumeric>' +
      '<p><other:nonNumeric xmlns:other="urn:other" name="not picked"/><ix:nonNumeric name="bus:Name">Zoë &amp; Co</ix:nonNumeric></p></body></html>';
    expect(outline(xml, picks)).toEqual({
      root: { localName: "html", namespace: XHTML },
      picked: [
        [{ attributes: {}, text: "" }],
        [
          { attributes: { name: "bus:UKCompaniesHouseRegisteredNumber", contextRef: "c" }, text: "00000001" },
          { attributes: { name: "bus:Name" }, text: "Zoë & Co" },
        ],
      ],
    });
    expect(outline(Buffer.from("<a/>"), picks)).toEqual({ root: { localName: "a", namespace: null }, picked: [[], []] });
  });

  it.each([
    ["a mismatched end tag", "<a><b></a>"],
    ["a repeated attribute", '<a x="1" x="2"/>'],
    ["an unknown entity", "<a>&unknown;</a>"],
    ["an undeclared prefix", "<a><q:b/></a>"],
    ["two roots", "<a/><b/>"],
    ["no root", "just text"],
    ["a DOCTYPE", "<!DOCTYPE a><a/>"],
    ["an entity declaration", '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>'],
  ])("refuses %s as parseXml does (GovTalkXmlError, malformed XML)", async (_what, xml) => {
    const outline = await loadXmlOutliner();
    expect(() => parseXml(xml)).toThrow(GovTalkXmlError);
    expect(() => outline(xml, picks)).toThrow(GovTalkXmlError);
    expect(() => outline(xml, picks)).toThrow(/^malformed XML: /);
  });

  it("loads libxml2 once", async () => {
    expect(await loadXmlOutliner()).toBe(await loadXmlOutliner());
  });
});
