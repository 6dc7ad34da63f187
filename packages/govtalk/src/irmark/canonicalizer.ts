import { C14nCanonicalizationWithComments } from "xml-crypto";
import type { Comment, Element } from "@xmldom/xmldom";

const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;
const PROCESSING_INSTRUCTION_NODE = 7;

/** A namespace binding inherited from the ancestors of the canonicalised element. */
export interface InheritedNamespace {
  prefix: string;
  namespaceURI: string;
}

/**
 * Inclusive Canonical XML 1.0 with comments (http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments),
 * on top of xml-crypto's implementation, fixing three places where it departs from the
 * recommendation for nodes inside the canonicalised subtree:
 * - comments are written as they are (xml-crypto escapes `&`, `<` and `>` in them);
 * - processing instructions are written as `<?target data?>` (xml-crypto throws on them);
 * - empty text or CDATA nodes produce nothing (xml-crypto throws on them).
 */
class InclusiveC14nWithComments extends C14nCanonicalizationWithComments {
  override renderComment(node: Comment): string {
    return `<!--${node.data}-->`;
  }

  override processInner(
    node: { nodeType: number; data?: string; target?: string },
    ...rest: [unknown, unknown, unknown, unknown, InheritedNamespace[]?]
  ): string {
    if (node.nodeType === PROCESSING_INSTRUCTION_NODE) {
      const data = node.data ?? "";
      return `<?${node.target ?? ""}${data ? ` ${data}` : ""}?>`;
    }
    if ((node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) && !node.data) return "";
    return super.processInner(node, ...rest);
  }
}

const canonicalizer = new InclusiveC14nWithComments();

/**
 * Canonicalises `element` as the apex of a document subset: the namespace declarations in scope
 * from its (omitted) ancestors are rendered on it, as inclusive C14N requires.
 */
export function canonicalize(element: Element, inherited: readonly InheritedNamespace[]): string {
  return canonicalizer.process(element as unknown as Parameters<typeof canonicalizer.process>[0], {
    ancestorNamespaces: inherited.map((ns) => ({ ...ns })),
  });
}
