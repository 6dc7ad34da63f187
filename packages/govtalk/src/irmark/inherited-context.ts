import type { Attr, Element } from "@xmldom/xmldom";
import { NS } from "../xml/namespaces.ts";
import type { InheritedNamespace } from "./canonicalizer.ts";

function ancestorsNearestFirst(element: Element): Element[] {
  const ancestors: Element[] = [];
  for (let node = element.parentNode; node && node.nodeType === 1; node = node.parentNode) {
    ancestors.push(node as Element);
  }
  return ancestors;
}

function attributesOf(element: Element): Attr[] {
  const attributes: Attr[] = [];
  for (let i = 0; i < element.attributes.length; i++) {
    const attribute = element.attributes.item(i);
    if (attribute) attributes.push(attribute);
  }
  return attributes;
}

/** The prefix an `xmlns` / `xmlns:p` attribute declares ("" for the default namespace). */
function declaredPrefix(attribute: Attr): string {
  return attribute.prefix === "xmlns" ? (attribute.localName ?? "") : "";
}

/**
 * The namespace bindings in scope on `element` that are declared on its ancestors (nearest
 * declaration wins), minus the ones the element itself declares or uses as its own prefix
 * (C14N renders those anyway). Undeclarations (`xmlns=""`) are not namespace nodes.
 */
export function inheritedNamespaces(element: Element): InheritedNamespace[] {
  const seen = new Set<string>();
  const bindings: InheritedNamespace[] = [];
  for (const ancestor of ancestorsNearestFirst(element)) {
    for (const attribute of attributesOf(ancestor)) {
      if (attribute.namespaceURI !== NS.xmlns) continue;
      const prefix = declaredPrefix(attribute);
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      bindings.push({ prefix, namespaceURI: attribute.value });
    }
  }
  const own = new Set<string>([element.prefix ?? ""]);
  for (const attribute of attributesOf(element)) {
    if (attribute.namespaceURI === NS.xmlns) own.add(declaredPrefix(attribute));
  }
  return bindings.filter((ns) => ns.namespaceURI !== "" && !own.has(ns.prefix));
}

/**
 * C14N 1.0 copies the `xml:*` attributes (xml:lang, xml:space...) of omitted ancestors onto the
 * apex of a document subset, unless the apex has its own: this sets them on `target`.
 */
export function copyInheritedXmlAttributes(source: Element, target: Element): void {
  for (const ancestor of ancestorsNearestFirst(source)) {
    for (const attribute of attributesOf(ancestor)) {
      const name = attribute.localName ?? "";
      if (attribute.namespaceURI !== NS.xml || target.hasAttributeNS(NS.xml, name)) continue;
      target.setAttributeNS(NS.xml, `xml:${name}`, attribute.value);
    }
  }
}

/** Whether an ancestor of `element` carries an `xml:*` attribute (C14N would copy it onto the element). */
export function hasInheritedXmlAttributes(element: Element): boolean {
  return ancestorsNearestFirst(element).some((ancestor) => attributesOf(ancestor).some((attribute) => attribute.namespaceURI === NS.xml));
}
