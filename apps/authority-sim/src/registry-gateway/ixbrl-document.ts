import { GovTalkXmlError, parseXml } from "@dormant/govtalk";
import type { Element } from "@xmldom/xmldom";
import { declaresDoctype } from "../xml/xml-body.ts";

const XHTML = "http://www.w3.org/1999/xhtml";
const INLINE_XBRL = "http://www.xbrl.org/2013/inlineXBRL";

function firstDescendant(root: Element, namespace: string, localName: string): Element | undefined {
  return Array.from(root.getElementsByTagNameNS(namespace, localName))[0];
}

/**
 * Checks the attached accounts as the registry's automatic validation does: well-formed XHTML
 * (no DOCTYPE), inline XBRL with an `ix:header`, and, when the document states the company's
 * registered number, the same number as the submission. Returns the problem, if any.
 */
export function ixbrlProblem(bytes: Buffer, companyNumber: string): string | undefined {
  const text = bytes.toString("utf8");
  if (declaresDoctype(text)) return "The accounts document must not contain a DOCTYPE or entity declaration.";
  let root: Element | null;
  try {
    root = parseXml(text).documentElement;
  } catch (error) {
    if (!(error instanceof GovTalkXmlError)) throw error;
    return `The accounts document is not well-formed XHTML (${error.message}).`;
  }
  if (!root || root.localName !== "html" || root.namespaceURI !== XHTML) return "The accounts document is not an XHTML document.";
  if (!firstDescendant(root, INLINE_XBRL, "header")) return "ix:header element not found in input document set.";
  const numberFacts = Array.from(root.getElementsByTagNameNS(INLINE_XBRL, "nonNumeric")).filter((fact) =>
    (fact.getAttribute("name") ?? "").endsWith(":UKCompaniesHouseRegisteredNumber"),
  );
  if (numberFacts.some((fact) => (fact.textContent ?? "").trim() !== companyNumber)) {
    return "The company number in the accounts does not match the company number of the submission.";
  }
  return undefined;
}
