import { afterEach, describe, expect, it, vi } from "vitest";
import { GovTalkXmlError } from "../errors.ts";
import { parseXml, XMLDOM_REGEXP_CACHE } from "./parse-xml.ts";

describe("parseXml (strict)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("builds xmldom's end-tag expressions once, with the same results", () => {
    expect(XMLDOM_REGEXP_CACHE).toBe(true);
    const xml = '<a xmlns="urn:a"><b >x</b ><c:d xmlns:c="urn:c">y</c:d\n></a>';
    const first = parseXml(xml);
    const second = parseXml(xml);
    expect(first.documentElement?.getElementsByTagNameNS("urn:c", "d")[0]?.textContent).toBe("y");
    expect(second.documentElement?.toString()).toBe(first.documentElement?.toString());
    // The end tag checks still refuse what they refused.
    expect(() => parseXml("<a></a b>")).toThrow(GovTalkXmlError);
    expect(() => parseXml("<a></a\nb>")).toThrow(GovTalkXmlError);
  });

  it("parses a well-formed document with its namespaces", () => {
    const root = parseXml('<a xmlns="urn:a" xmlns:p="urn:p"><p:b>x &amp; y</p:b></a>').documentElement;
    expect(root?.namespaceURI).toBe("urn:a");
    expect(root?.getElementsByTagNameNS("urn:p", "b")[0]?.textContent).toBe("x & y");
  });

  it.each([
    ["a mismatched end tag", "<a><b></a>", /tag mismatch/],
    ["a repeated attribute", '<a x="1" x="2"/>', /redefined/],
    ["an unknown entity", "<a>&unknown;</a>", /entity not found/],
    ["an undeclared prefix", "<a><q:b/></a>", /prefix/],
    ["two roots", "<a/><b/>", /one element/],
    ["no root", "just text", /root/],
    ["nothing", "", /root/],
  ])("throws GovTalkXmlError for %s, printing nothing", (_what, xml, message) => {
    const printed = [vi.spyOn(console, "error"), vi.spyOn(console, "warn"), vi.spyOn(console, "log")];
    expect(() => parseXml(xml)).toThrow(GovTalkXmlError);
    expect(() => parseXml(xml)).toThrow(message);
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
  });

  it("refuses a DOCTYPE, and never expands a declared entity", () => {
    expect(() => parseXml("<!DOCTYPE a><a/>")).toThrow("a DOCTYPE is not accepted");
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>')).toThrow(GovTalkXmlError);
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY e "boom">]><a/>')).toThrow("a DOCTYPE is not accepted");
  });
});
