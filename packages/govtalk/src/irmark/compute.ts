import { createHash } from "node:crypto";
import type { Document, Element, Node } from "@xmldom/xmldom";
import { GovTalkXmlError } from "../errors.ts";
import { childElement, childElements } from "../xml/dom-query.ts";
import { NS } from "../xml/namespaces.ts";
import { parseXml } from "../xml/parse-xml.ts";
import { irmarkToBase32 } from "./base32.ts";
import { canonicalize } from "./canonicalizer.ts";
import { copyInheritedXmlAttributes, hasInheritedXmlAttributes, inheritedNamespaces } from "./inherited-context.ts";

/** An IRmark in the two forms the tax authority uses. */
export interface IRmark {
  /** 28-character base64 SHA-1 digest, as carried in `IRheader/IRmark`. */
  base64: string;
  /** 32-character base32 form of the same digest, as quoted on receipts. */
  base32: string;
}

/** The GovTalk `Body` of a message (the root must be a GovTalk envelope `GovTalkMessage`). */
export function govTalkBody(document: Document): Element {
  const root = document.documentElement;
  if (root?.localName !== "GovTalkMessage" || root.namespaceURI !== NS.envelope) {
    throw new GovTalkXmlError(`not a GovTalk message: the root element must be {${NS.envelope}}GovTalkMessage`);
  }
  const body = childElement(root, "Body", NS.envelope);
  if (!body) throw new GovTalkXmlError("not a GovTalk message with a Body: no Body element");
  return body;
}

/** The `IRenvelope/IRheader/IRmark` elements under a Body (matched by local name). */
export function irmarkElements(body: Element): Element[] {
  return childElements(body, "IRenvelope")
    .flatMap((envelope) => childElements(envelope, "IRheader"))
    .flatMap((header) => childElements(header, "IRmark"));
}

/**
 * The exact text the IRmark digests: the GovTalk Body with the namespace declarations it
 * inherits, without `IRenvelope/IRheader/IRmark` (the whitespace around it stays), in inclusive
 * C14N 1.0 with comments.
 *
 * The Body is canonicalised where it is: its IRmark elements are taken out for the duration of
 * the call and put back in their places before it returns (or throws), so the document is left
 * as it was. Cloning the Body instead (xmldom's cloneNode) cost more than the parse of the whole
 * message. Only when an ancestor carries `xml:*` attributes, which C14N copies onto the Body, is
 * a copy canonicalised, so that the caller's Body never gains attributes.
 */
export function irmarkCanonicalBody(document: Document): string {
  const body = govTalkBody(document);
  const inherited = inheritedNamespaces(body);
  if (hasInheritedXmlAttributes(body)) {
    const copy = body.cloneNode(true) as Element;
    copyInheritedXmlAttributes(body, copy);
    for (const irmark of irmarkElements(copy)) irmark.parentNode?.removeChild(irmark);
    return canonicalize(copy, inherited);
  }
  const removed: { element: Element; parent: Node; next: Node | null }[] = [];
  try {
    for (const element of irmarkElements(body)) {
      const parent = element.parentNode;
      if (!parent) continue;
      removed.push({ element, parent, next: element.nextSibling });
      parent.removeChild(element);
    }
    return canonicalize(body, inherited);
  } finally {
    for (const { element, parent, next } of removed.reverse()) parent.insertBefore(element, next);
  }
}

/**
 * Computes the IRmark of a GovTalk message (given as text or as a parsed document), ignoring
 * whatever IRmark it carries. Throws GovTalkXmlError when the text is not a GovTalk message.
 */
export function computeIRmark(message: string | Document): IRmark {
  const document = typeof message === "string" ? parseXml(message) : message;
  const digest = createHash("sha1").update(irmarkCanonicalBody(document), "utf8").digest("base64");
  return { base64: digest, base32: irmarkToBase32(digest) };
}
