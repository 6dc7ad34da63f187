import { GovTalkXmlError, NS, type XmlOutliner, type XmlPick } from "@dormant/govtalk";
import type { Element } from "@xmldom/xmldom";
import type { TaxRuleError } from "../sandbox/scenarios.ts";

const IX = "http://www.xbrl.org/2013/inlineXBRL";

/**
 * The back end's iXBRL checks the simulator makes on attached accounts and computations, with
 * the numbers, types, texts and locations of a real answer of HMRC's test service
 * (testdata/hmrc/tpvs-business-errors-response.xml: Number 0, Location `Accounts` or
 * `Computations`). Only these three presence checks; HMRC's full iXBRL validation (taxonomy,
 * contexts, facts) cannot be reproduced offline.
 */
const REQUIRED = [
  { localName: "header", type: "xbrl.ixbrl.HeaderAbsent", text: "ix:header element not found in input document set." },
  { localName: "references", type: "xbrl.ixbrl.ReferencesAbsent", text: "ix:references not found for the default target document" },
  { localName: "resources", type: "xbrl.ixbrl.ResourcesAbsent", text: "ix:resources not found in input document set." },
] as const;
const PICKS: XmlPick[] = REQUIRED.map(({ localName }) => ({ namespace: IX, localName }));

/** `AttachedFiles/XBRLsubmission/{Computation,Accounts}` → the location HMRC names them by. */
const ATTACHMENTS = [
  { element: "Computation", location: "Computations" },
  { element: "Accounts", location: "Accounts" },
] as const;

function children(parent: Element | undefined, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent?.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === 1 && element.localName === localName && element.namespaceURI === NS.ct) found.push(element);
  }
  return found;
}

/**
 * The iXBRL errors of the documents attached to a return (EncodedInlineXBRLDocument, base64),
 * to be answered with its business rule failures under 3001. A document that is not well-formed
 * XML has none of the three elements found (the simulator's own reading: HMRC's answer to it
 * is not known offline).
 */
export async function attachedIxbrlErrors(body: Element | undefined, outliner: Promise<XmlOutliner>): Promise<TaxRuleError[]> {
  const submission = children(
    children(children(children(body, "IRenvelope")[0], "CompanyTaxReturn")[0], "AttachedFiles")[0],
    "XBRLsubmission",
  )[0];
  if (!submission) return [];
  const errors: TaxRuleError[] = [];
  for (const { element, location } of ATTACHMENTS) {
    for (const attached of children(submission, element)) {
      const documents = children(children(attached, "Instance")[0], "EncodedInlineXBRLDocument");
      if (documents.length === 0) continue;
      const found = new Set<string>();
      for (const document of documents) {
        const bytes = Buffer.from((document.textContent ?? "").replace(/\s+/g, ""), "base64");
        try {
          const outline = (await outliner)(bytes, PICKS);
          REQUIRED.forEach(({ localName }, index) => {
            if ((outline.picked[index]?.length ?? 0) > 0) found.add(localName);
          });
        } catch (error) {
          if (!(error instanceof GovTalkXmlError)) throw error;
        }
      }
      for (const { localName, type, text } of REQUIRED) {
        if (!found.has(localName)) errors.push({ number: 0, type, text, location });
      }
    }
  }
  return errors;
}
