import { createRequire } from "node:module";

/**
 * @xmldom/xmldom 0.9 builds a new RegExp for every end tag it parses (`g.reg('^', QName, S, '$')`
 * in its sax.js, and `g.reg('^', ...)` in each `getMatch`): compiling those regular expressions
 * was a quarter of the time a GovTalk message took to parse. The expressions are always the
 * same few, so this replaces the grammar module's `reg` with one that remembers what it built,
 * by source (and by whether it was called as a plain function, which changes what `reg` allows).
 * The expressions have no `g` or `y` flag, so sharing one between calls keeps no state
 * (`lastIndex` is neither read nor written by `exec`/`test` without those flags).
 *
 * sax.js calls `g.reg(...)` through the module's exports object at every call, so replacing the
 * export takes effect for every DOMParser of the process. If a later xmldom has no such export
 * (or builds expressions with other flags), nothing is replaced: parsing stays correct, only slower.
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
  const built = new Map<string, RegExp>();
  const cached = function (this: unknown, ...parts: (RegExp | string)[]): RegExp {
    const key = `${this === undefined ? "f" : "m"}${parts.map((part) => (typeof part === "string" ? `s${part}` : `r${part.source}/${part.flags}`)).join("\u0000")}`;
    const known = built.get(key);
    if (known) return known;
    const expression = original.apply(this, parts);
    if (!expression.global && !expression.sticky && built.size < MAX_CACHED) built.set(key, expression);
    return expression;
  } as Grammar["reg"];
  cached.cached = true;
  grammar.reg = cached;
  return true;
}
