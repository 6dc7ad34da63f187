import type { Element, Node } from "@xmldom/xmldom";

const ELEMENT_NODE = 1;

function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT_NODE;
}

/** Child elements of `parent` with this local name, in `namespace` when one is given. */
export function childElements(parent: Element, localName?: string, namespace?: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (!isElement(node)) continue;
    if (localName !== undefined && node.localName !== localName) continue;
    if (namespace !== undefined && node.namespaceURI !== namespace) continue;
    found.push(node);
  }
  return found;
}

/** The first child element with this local name (and namespace), if any. */
export function childElement(parent: Element, localName: string, namespace?: string): Element | undefined {
  return childElements(parent, localName, namespace)[0];
}

/** Follows a path of local names (in one namespace) from `start`; undefined if a step is missing. */
export function elementAt(start: Element, path: readonly string[], namespace?: string): Element | undefined {
  let current: Element | undefined = start;
  for (const step of path) {
    if (!current) return undefined;
    current = childElement(current, step, namespace);
  }
  return current;
}

/** Text content of an element, trimmed; "" when the element is absent or empty. */
export function textOf(element: Element | undefined): string {
  return (element?.textContent ?? "").trim();
}

/** Trimmed text at a path of local names, or undefined when an element on the path is absent. */
export function textAt(start: Element, path: readonly string[], namespace?: string): string | undefined {
  const element = elementAt(start, path, namespace);
  return element ? textOf(element) : undefined;
}

/** All descendant elements (document order) with this local name and namespace. */
export function descendants(root: Element, localName: string, namespace: string): Element[] {
  const found: Element[] = [];
  const visit = (element: Element): void => {
    for (const child of childElements(element)) {
      if (child.localName === localName && child.namespaceURI === namespace) found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}
