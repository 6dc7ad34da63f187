import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { GovTalkXmlError } from "../errors.ts";
import { readHmrcTestdata } from "../test-support/testdata.ts";
import { computeIRmark, irmarkCanonicalBody } from "./compute.ts";
import { parseXml } from "../xml/parse-xml.ts";
import { XMLSerializer } from "@xmldom/xmldom";

const ENV = "http://www.govtalk.gov.uk/CM/envelope";
const CT = "http://www.govtalk.gov.uk/taxation/CT/5";

/**
 * Independent oracle: libxml2's C14N 1.0 with comments (xmllint --c14n) of a document whose root
 * is the Body as the IRmark sees it (inherited namespaces declared on it, IRmark removed).
 */
async function libxml2Digest(standaloneBody: string): Promise<string> {
  const result = await validateXML({ xml: [{ fileName: "body.xml", contents: standaloneBody }], normalization: "c14n" });
  return createHash("sha1").update(result.normalized.replace(/\n$/, ""), "utf8").digest("base64");
}

interface Case {
  /** Root start tag of the message, e.g. `<GovTalkMessage xmlns="...">`. */
  root: string;
  rootEnd: string;
  /** Body start tag in the message and the namespace declarations it inherits. */
  body: string;
  bodyEnd: string;
  inherited: string;
  /** Body content with `{IRMARK}` where the IRmark element goes. */
  inner: string;
}

function message(c: Case, irmark = '<IRmark Type="generic">c29tZXRoaW5nIGVsc2UgZW50aXJlbHk=</IRmark>'): string {
  const header = "<EnvelopeVersion>2.0</EnvelopeVersion>";
  const prefix = c.body.startsWith("<gt:") ? "gt:" : "";
  const headerXml = header.replace(/<(\/?)EnvelopeVersion>/g, `<$1${prefix}EnvelopeVersion>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${c.root}\n  ${headerXml}\n  ${c.body}${c.inner.replace("{IRMARK}", irmark)}${c.bodyEnd}\n${c.rootEnd}`;
}

function standalone(c: Case): string {
  const tag = c.body.replace(/>$/, `${c.inherited}>`);
  return `${tag}${c.inner.replace("{IRMARK}", "")}${c.bodyEnd}`;
}

const inner = (ctPrefix: string, name: string) =>
  `\n    <${ctPrefix}IRenvelope${ctPrefix ? "" : ` xmlns="${CT}"`}>\n      <${ctPrefix}IRheader>\n        {IRMARK}\n        <${ctPrefix}Sender>Company</${ctPrefix}Sender>\n      </${ctPrefix}IRheader>\n      <${ctPrefix}CompanyName>${name}</${ctPrefix}CompanyName>\n    </${ctPrefix}IRenvelope>\n  `;

const cases: Record<string, Case> = {
  "a default-namespace envelope": {
    root: `<GovTalkMessage xmlns="${ENV}">`,
    rootEnd: "</GovTalkMessage>",
    body: "<Body>",
    bodyEnd: "</Body>",
    inherited: ` xmlns="${ENV}"`,
    inner: inner("", "Plain Ltd"),
  },
  "tabs, CRLF line ends and attribute spacing": {
    root: `<GovTalkMessage\txmlns="${ENV}"\r\n  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" >`,
    rootEnd: "</GovTalkMessage>",
    body: "<Body >",
    bodyEnd: "</Body>",
    inherited: ` xmlns="${ENV}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
    inner: `\r\n\t<IRenvelope   xmlns="${CT}" >\r\n\t\t<IRheader>{IRMARK}\t<Sender\r\n>Company</Sender ></IRheader>\r\n\t\t<Note b='2'  a="1 \t x">  spaced   text  </Note>\r\n\t</IRenvelope>\r\n`,
  },
  "a prefixed envelope namespace": {
    root: `<gt:GovTalkMessage xmlns:gt="${ENV}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`,
    rootEnd: "</gt:GovTalkMessage>",
    body: "<gt:Body>",
    bodyEnd: "</gt:Body>",
    inherited: ` xmlns:gt="${ENV}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
    inner: inner("", "Prefixed Envelope Ltd"),
  },
  "a prefixed return namespace declared on the root": {
    root: `<GovTalkMessage xmlns="${ENV}" xmlns:ct="${CT}">`,
    rootEnd: "</GovTalkMessage>",
    body: "<Body>",
    bodyEnd: "</Body>",
    inherited: ` xmlns="${ENV}" xmlns:ct="${CT}"`,
    inner: inner("ct:", "Prefixed Return Ltd"),
  },
  "comments inside the Body": {
    root: `<GovTalkMessage xmlns="${ENV}">`,
    rootEnd: "</GovTalkMessage>",
    body: "<Body>",
    bodyEnd: "</Body>",
    inherited: ` xmlns="${ENV}"`,
    inner: `<!-- before -->${inner("", "Commented Ltd").replace("<Sender>", "<!-- a < b & c > d --><Sender>")}<!--after-->`,
  },
  "non-ASCII names": {
    root: `<GovTalkMessage xmlns="${ENV}">`,
    rootEnd: "</GovTalkMessage>",
    body: "<Body>",
    bodyEnd: "</Body>",
    inherited: ` xmlns="${ENV}"`,
    inner: inner("", "Zoë Ørsted Straße – 日本 Ltd €"),
  },
  "escaped characters, CDATA and character references": {
    root: `<GovTalkMessage xmlns="${ENV}">`,
    rootEnd: "</GovTalkMessage>",
    body: "<Body>",
    bodyEnd: "</Body>",
    inherited: ` xmlns="${ENV}"`,
    inner: inner("", "Smith &amp; Sons &lt;UK&gt; &apos;T&apos; &quot;L&quot; &#163; &#xD;&#9;<![CDATA[<raw> & ]]>").replace(
      "<Sender>",
      `<Attr note="a &amp; b &lt; c &quot;q&quot; &apos;s&apos; &#10; &gt;"/><Sender>`,
    ),
  },
  "a processing instruction and xml:lang inherited from the root": {
    root: `<GovTalkMessage xmlns="${ENV}" xml:lang="en">`,
    rootEnd: "</GovTalkMessage>",
    body: "<Body>",
    bodyEnd: "</Body>",
    inherited: ` xmlns="${ENV}" xml:lang="en"`,
    inner: inner("", "PI Ltd").replace("<Sender>", "<?app some data?><Sender>"),
  },
};

describe("computeIRmark", () => {
  it("recomputes the tax authority's test vector", () => {
    const irmark = computeIRmark(readHmrcTestdata("tpvs-accepted-sample.xml"));
    expect(irmark.base64).toBe("YrgW02ybxWOff7gHrELynhp1gRw=");
    // The receipt in tpvs-success-response.xml quotes the same digest in base32.
    expect(irmark.base32).toBe("MK4BNU3MTPCWHH37XAD2YQXSTYNHLAI4");
  });

  it("ignores the IRmark written in the message, and its absence", () => {
    const sample = readHmrcTestdata("tpvs-accepted-sample.xml");
    expect(computeIRmark(sample.replace("YrgW02ybxWOff7gHrELynhp1gRw=", "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")).base64).toBe(
      "YrgW02ybxWOff7gHrELynhp1gRw=",
    );
    expect(computeIRmark(sample.replace('<IRmark Type="generic">YrgW02ybxWOff7gHrELynhp1gRw=</IRmark>', "")).base64).toBe(
      "YrgW02ybxWOff7gHrELynhp1gRw=",
    );
  });

  it("is unchanged by whitespace outside the Body but changed by whitespace inside it", () => {
    const sample = readHmrcTestdata("tpvs-accepted-sample.xml");
    const reformattedHeader = sample
      .replace("<Header>\n\t\t<MessageDetails>", "<Header>   <MessageDetails>")
      .replace(/\t<\/GovTalkDetails>/, "</GovTalkDetails>");
    expect(computeIRmark(reformattedHeader).base64).toBe("YrgW02ybxWOff7gHrELynhp1gRw=");
    expect(computeIRmark(sample.replace("<Sender>Company</Sender>", "<Sender>Company</Sender> ")).base64).not.toBe(
      "YrgW02ybxWOff7gHrELynhp1gRw=",
    );
  });

  it.each(Object.entries(cases))("matches libxml2's canonical form for %s", async (_name, c) => {
    const xml = message(c);
    const expected = await libxml2Digest(standalone(c));
    expect(computeIRmark(xml).base64).toBe(expected);
    expect(computeIRmark(message(c, '<IRmark Type="generic"/>')).base64).toBe(expected);
  });

  it.each(Object.entries(cases))("gives the same IRmark after inserting it into %s", (_name, c) => {
    const computed = computeIRmark(message(c, '<IRmark Type="generic"></IRmark>'));
    const withIRmark = message(c, `<IRmark Type="generic">${computed.base64}</IRmark>`);
    expect(computeIRmark(withIRmark)).toEqual(computed);
  });

  it("renders the Body with the namespaces it inherits", () => {
    const canonical = irmarkCanonicalBody(parseXml(message(cases["a prefixed envelope namespace"]!)));
    expect(canonical.startsWith(`<gt:Body xmlns:gt="${ENV}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`)).toBe(true);
    expect(canonical).not.toContain("IRmark");
  });

  it.each(Object.entries(cases))("leaves the document as it was (IRmark elements back in place) for %s", (_name, c) => {
    const document = parseXml(message(c));
    const before = new XMLSerializer().serializeToString(document);
    const first = irmarkCanonicalBody(document);
    expect(new XMLSerializer().serializeToString(document)).toBe(before);
    expect(irmarkCanonicalBody(document)).toBe(first);
  });

  it("leaves two adjacent IRmark elements in their places", () => {
    const c = cases["a default-namespace envelope"]!;
    const xml = message(c, '<IRmark Type="generic">one</IRmark><IRmark Type="generic">two</IRmark>');
    const document = parseXml(xml);
    const before = new XMLSerializer().serializeToString(document);
    expect(computeIRmark(document)).toEqual(computeIRmark(message(c, "")));
    expect(new XMLSerializer().serializeToString(document)).toBe(before);
  });

  it("gives different IRmarks to different prefixes for the same data (the prefix is part of the digest)", () => {
    const plain = computeIRmark(message(cases["a default-namespace envelope"]!));
    const prefixed = computeIRmark(message({ ...cases["a prefixed envelope namespace"]!, inner: inner("", "Plain Ltd") }));
    expect(prefixed.base64).not.toBe(plain.base64);
  });

  it.each([
    ["not XML", "this is not xml"],
    ["malformed XML", `<GovTalkMessage xmlns="${ENV}"><Body></GovTalkMessage>`],
    ["another root element", `<IRenvelope xmlns="${CT}"/>`],
    ["a GovTalk message without a Body", `<GovTalkMessage xmlns="${ENV}"><Header/></GovTalkMessage>`],
    ["a GovTalkMessage in no namespace", "<GovTalkMessage><Body/></GovTalkMessage>"],
  ])("refuses %s", (_name, xml) => {
    expect(() => computeIRmark(xml)).toThrow(GovTalkXmlError);
  });
});
