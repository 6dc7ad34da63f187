import { createRequire } from "node:module";

/**
 * @xmldom/xmldom 0.9 builds a new RegExp for every end tag it parses (`g.reg('^', QName, S, '$')`
 * in its sax.js, and `g.reg('^', ...)` in each `getMatch`): compiling those regular expressions
 * was a quarter of the time a GovTalk message took to parse. The expressions are always the
 * same few, so this replaces the grammar module's `reg` with one that remembers what it built,
 * by its arguments (and by whether it was called as a plain function, which changes what `reg`
 * allows).
 * The expressions have no `g` or `y` flag, so sharing one between calls keeps no state
 * (`lastIndex` is neither read nor written by `exec`/`test` without those flags).
 *
 * sax.js calls `g.reg(...)` through the module's exports object at every call, so replacing the
 * export takes effect for every DOMParser of the process. If a later xmldom has no such export
 * (or builds expressions with other flags), nothing is replaced: parsing stays correct, only slower.
 * Installed once per process by whichever loads first: GovTalk's parseXml, or @dormant/documents'
 * read-ixbrl (the filing service parses every rendered iXBRL back), through the package export
 * `@dormant/govtalk/xmldom-regexp-cache`.
 */
interface Grammar {
  reg: ((this: unknown, ...parts: (RegExp | string)[]) => RegExp) & { cached?: true };
}

const MAX_CACHED = 256;

export function installXmldomRegExpCache(): boolean {
  let grammar: Grammar;
  try {
    grammar = createRequire(import.meta.url)("@xmldom/xmldom/lib/grammar.js") as Grammar;
  } catch {
    return false;
  }
  const original = grammar.reg;
  if (typeof original !== "function") return false;
  if (original.cached) return true;
  // A tree of maps keyed by the arguments themselves (strings by value, the grammar's RegExp
  // constants by identity): a lookup builds no key string. At most MAX_CACHED nodes in all, so
  // arguments that were new objects at every call could not make it grow without bound.
  type Node = { expression?: RegExp; next: Map<unknown, Node> };
  const roots = { plain: { next: new Map() } as Node, method: { next: new Map() } as Node };
  let size = 0;
  const cached = function (this: unknown, ...parts: (RegExp | string)[]): RegExp {
    let node: Node = this === undefined ? roots.plain : roots.method;
    for (const part of parts) {
      let next = node.next.get(part);
      if (!next) {
        if (size >= MAX_CACHED) return original.apply(this, parts);
        next = { next: new Map() };
        node.next.set(part, next);
        size += 1;
      }
      node = next;
    }
    if (node.expression) return node.expression;
    const expression = original.apply(this, parts);
    if (!expression.global && !expression.sticky) node.expression = expression;
    return expression;
  } as Grammar["reg"];
  cached.cached = true;
  grammar.reg = cached;
  return true;
}
