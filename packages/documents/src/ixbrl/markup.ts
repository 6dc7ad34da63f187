import { escapeXml } from "./escape-xml.ts";

/**
 * A minimal XML tree for building the XHTML document. Text and attribute values are stored raw and
 * escaped once, by `escapeXml`, when the tree is serialised, so no caller ever handles markup
 * strings.
 */
export interface ElementNode {
  readonly kind: "element";
  readonly name: string;
  readonly attributes: ReadonlyArray<readonly [string, string]>;
  readonly children: readonly MarkupNode[];
}

export interface TextNode {
  readonly kind: "text";
  readonly value: string;
}

export type MarkupNode = ElementNode | TextNode;

/** What may be passed as children: text, nodes, nested lists, and nothing (skipped). */
export type Child = string | MarkupNode | null | undefined | false | readonly Child[];

export type Attributes = Readonly<Record<string, string | undefined>>;

const QNAME = /^(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*$/;

/** XHTML elements that can never have content; everything else gets an explicit end tag. */
const VOID_ELEMENTS = new Set(["br", "col", "hr", "meta"]);

/** Containers whose children are laid out one per line when they hold only elements. */
const BLOCK_ELEMENTS = new Set([
  "html",
  "head",
  "body",
  "div",
  "table",
  "thead",
  "tbody",
  "tr",
  "colgroup",
  "ix:header",
  "ix:hidden",
  "ix:references",
  "ix:resources",
  "xbrli:context",
  "xbrli:entity",
  "xbrli:segment",
  "xbrli:period",
  "xbrli:unit",
]);

function flatten(children: readonly Child[], into: MarkupNode[]): MarkupNode[] {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (typeof child === "string") {
      if (child !== "") into.push({ kind: "text", value: child });
    } else if (Array.isArray(child)) {
      flatten(child as readonly Child[], into);
    } else {
      into.push(child as MarkupNode);
    }
  }
  return into;
}

export function el(name: string, attributes: Attributes, ...children: Child[]): ElementNode {
  if (!QNAME.test(name)) throw new Error(`Invalid element name ${JSON.stringify(name)}`);
  const pairs: Array<readonly [string, string]> = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (!QNAME.test(key)) throw new Error(`Invalid attribute name ${JSON.stringify(key)}`);
    pairs.push([key, value]);
  }
  const content = flatten(children, []);
  if (VOID_ELEMENTS.has(name) && content.length > 0) throw new Error(`<${name}> cannot have content`);
  return { kind: "element", name, attributes: pairs, children: content };
}

function serialiseNode(node: MarkupNode, depth: number): string {
  if (node.kind === "text") return escapeXml(node.value);
  const attributes = node.attributes.map(([key, value]) => ` ${key}="${escapeXml(value)}"`).join("");
  if (VOID_ELEMENTS.has(node.name)) return `<${node.name}${attributes}/>`;
  const blockLayout = BLOCK_ELEMENTS.has(node.name) && node.children.length > 0 && node.children.every((child) => child.kind === "element");
  if (!blockLayout) {
    const inner = node.children.map((child) => serialiseNode(child, depth + 1)).join("");
    return `<${node.name}${attributes}>${inner}</${node.name}>`;
  }
  const indent = `\n${"  ".repeat(depth + 1)}`;
  const inner = node.children.map((child) => indent + serialiseNode(child, depth + 1)).join("");
  return `<${node.name}${attributes}>${inner}\n${"  ".repeat(depth)}</${node.name}>`;
}

/** Serialise a whole document: XML declaration, then the root element; ASCII only. */
export function serialiseDocument(root: ElementNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialiseNode(root, 0)}\n`;
}
