import { DOMParser, type Document, type Element, type Node } from "@xmldom/xmldom";
import { parseLongDate } from "./long-date.ts";
import { NS } from "./taxonomy.ts";
import { installXmldomRegExpCache } from "@dormant/govtalk/xmldom-regexp-cache";

/** Whether xmldom's per-end-tag regular expressions are built once (see packages/govtalk/src/xml/xmldom-regexp-cache.ts). */
export const XMLDOM_REGEXP_CACHE = installXmldomRegExpCache();

/**
 * Reads an Inline XBRL document back into its contexts, units and facts, resolving each fact's
 * displayed text to its XBRL value through the transformation it names. It knows the
 * transformation registry 4 formats this package writes and the registry 1-3 formats of real
 * accepted accounts; any other format is reported as a problem rather than guessed.
 */

export type IxbrlPeriod =
  | { readonly instant: string }
  | { readonly startDate: string; readonly endDate: string }
  | { readonly forever: true };

export interface IxbrlContext {
  readonly id: string;
  readonly scheme: string | undefined;
  readonly identifier: string | undefined;
  readonly period: IxbrlPeriod | undefined;
  readonly members: ReadonlyArray<{ readonly dimension: string; readonly member: string }>;
}

export interface IxbrlUnit {
  readonly id: string;
  readonly measures: readonly string[];
}

export interface IxbrlFact {
  readonly kind: "nonNumeric" | "nonFraction";
  readonly name: string;
  readonly contextRef: string | undefined;
  readonly unitRef: string | undefined;
  readonly decimals: string | undefined;
  readonly format: string | undefined;
  readonly sign: string | undefined;
  /** Inside `ix:hidden`. */
  readonly hidden: boolean;
  /** The text a reader sees. */
  readonly displayed: string;
  /** The XBRL value after transformation and sign; undefined when it could not be worked out. */
  readonly value: string | undefined;
  readonly element: Element;
}

export interface IxbrlReading {
  /** The parsed document; undefined when the text is not well-formed XML. */
  readonly document: Document | undefined;
  readonly schemaRefs: readonly string[];
  readonly contexts: readonly IxbrlContext[];
  readonly units: readonly IxbrlUnit[];
  readonly facts: readonly IxbrlFact[];
  /** Parse errors and values that could not be read. */
  readonly problems: readonly string[];
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_NODE = 4;

function childElements(element: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = element.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === ELEMENT_NODE) {
      const child = node as Element;
      if (child.namespaceURI === namespace && child.localName === localName) found.push(child);
    }
  }
  return found;
}

function descendants(root: Document | Element, namespace: string, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(namespace, localName));
}

function attribute(element: Element, name: string): string | undefined {
  return element.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined;
}

function trimmedText(element: Element | undefined): string | undefined {
  return element?.textContent?.trim();
}

/** The text of a fact: descendant text, leaving out `ix:exclude` content. */
function factText(node: Node): string {
  let text = "";
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_NODE) {
      text += child.nodeValue ?? "";
    } else if (child.nodeType === ELEMENT_NODE) {
      const element = child as Element;
      if (!(element.namespaceURI === NS.ix && element.localName === "exclude")) text += factText(element);
    }
  }
  return text;
}

function isHidden(element: Element): boolean {
  for (let node = element.parentNode; node !== null; node = node.parentNode) {
    if (node.nodeType === ELEMENT_NODE) {
      const ancestor = node as Element;
      if (ancestor.namespaceURI === NS.ix && ancestor.localName === "hidden") return true;
    }
  }
  return false;
}

/** Moves the decimal point of a non-negative decimal string `scale` places to the right. */
export function shiftDecimal(value: string, scale: number): string {
  const [whole = "", fraction = ""] = value.split(".");
  const digits = whole + fraction;
  const point = whole.length + scale;
  const padded = point < 0 ? "0".repeat(-point) + digits : point > digits.length ? digits + "0".repeat(point - digits.length) : digits;
  const at = Math.max(point, 0);
  const integer = (padded.slice(0, at) || "0").replace(/^0+(?=\d)/, "");
  const decimals = padded.slice(at).replace(/0+$/, "");
  return decimals === "" ? integer : `${integer}.${decimals}`;
}

const PLAIN_NUMBER = /^\d+(\.\d+)?$/;

/** Namespaces of the earlier inline XBRL transformation registries (1, 2 and 3). */
export const LEGACY_IXT = {
  tr1: "http://www.xbrl.org/inlineXBRL/transformation/2010-04-20",
  tr2: "http://www.xbrl.org/inlineXBRL/transformation/2011-07-31",
  tr3: "http://www.xbrl.org/inlineXBRL/transformation/2015-02-26",
} as const;
const DOT_DECIMAL = /^(\d{1,3}(?:[, \u00a0]\d{3})+|\d+)(\.\d+)?$/;

type Resolved = { readonly value: string } | { readonly problem: string };

type Transform = (text: string, format: string) => Resolved;

const dotDecimal: Transform = (text, format) => {
  const match = DOT_DECIMAL.exec(text);
  if (match === null) return { problem: `"${text}" does not match ${format}` };
  return { value: (match[1] ?? "").replace(/[, \u00a0]/g, "") + (match[2] ?? "") };
};
const zero: Transform = () => ({ value: "0" });
const fixed =
  (value: string): Transform =>
  () => ({ value });
const dayMonthNameYear: Transform = (text, format) => {
  const iso = parseLongDate(text);
  return iso === undefined ? { problem: `"${text}" does not match ${format}` } : { value: iso };
};

/**
 * The transformation registries this reader knows, by namespace, with the formats it resolves:
 * registry 4 (what this package writes) and the formats of registries 1-3 that accounts the
 * registry accepted use (`testdata/accepted-accounts/`). Anything else is reported, not guessed.
 */
const TRANSFORMATION_REGISTRIES: Readonly<Record<string, Readonly<Record<string, Transform>>>> = {
  [NS.ixt]: {
    "num-dot-decimal": dotDecimal,
    "fixed-zero": zero,
    "fixed-true": fixed("true"),
    "fixed-false": fixed("false"),
    "date-day-monthname-year-en": dayMonthNameYear,
  },
  [LEGACY_IXT.tr3]: {
    numdotdecimal: dotDecimal,
    zerodash: zero,
    booleantrue: fixed("true"),
    booleanfalse: fixed("false"),
    datedaymonthyearen: dayMonthNameYear,
  },
  [LEGACY_IXT.tr2]: {
    numdotdecimal: dotDecimal,
    zerodash: zero,
    booleantrue: fixed("true"),
    booleanfalse: fixed("false"),
    datedaymonthyearen: dayMonthNameYear,
  },
  [LEGACY_IXT.tr1]: {
    numcommadot: dotDecimal,
    zerodash: zero,
    datelonguk: dayMonthNameYear,
  },
};

function resolveFormat(element: Element, format: string | undefined, displayed: string, numeric: boolean): Resolved {
  if (format === undefined) {
    if (!numeric) return { value: displayed };
    const text = displayed.trim();
    return PLAIN_NUMBER.test(text) ? { value: text } : { problem: `"${text}" is not a number and has no format` };
  }
  const [prefix, local] = format.includes(":") ? format.split(":", 2) : [null, format];
  const namespace = element.lookupNamespaceURI(prefix ?? null);
  const registry = namespace === null ? undefined : TRANSFORMATION_REGISTRIES[namespace];
  if (registry === undefined)
    return { problem: `format ${format} is not in a transformation registry this reader knows (${namespace ?? "no namespace"})` };
  const transform = local === undefined ? undefined : registry[local];
  if (transform === undefined) return { problem: `format ${format} is not supported by this reader` };
  return transform(displayed.trim(), format);
}

function readFact(element: Element, kind: IxbrlFact["kind"], problems: string[]): IxbrlFact {
  const name = attribute(element, "name") ?? "";
  const format = attribute(element, "format");
  const sign = attribute(element, "sign");
  const displayed = factText(element);
  const resolved = resolveFormat(element, format, displayed, kind === "nonFraction");
  let value: string | undefined;
  if ("problem" in resolved) {
    problems.push(`${name} (${attribute(element, "contextRef") ?? "no context"}): ${resolved.problem}`);
  } else if (kind === "nonFraction") {
    const scale = Number(attribute(element, "scale") ?? "0");
    const magnitude = shiftDecimal(resolved.value, Number.isInteger(scale) ? scale : 0);
    value = sign === "-" && !/^0(\.0+)?$/.test(magnitude) ? `-${magnitude}` : magnitude;
  } else {
    value = resolved.value;
  }
  return {
    kind,
    name,
    contextRef: attribute(element, "contextRef"),
    unitRef: attribute(element, "unitRef"),
    decimals: attribute(element, "decimals"),
    format,
    sign,
    hidden: isHidden(element),
    displayed,
    value,
    element,
  };
}

function readPeriod(context: Element): IxbrlPeriod | undefined {
  const period = childElements(context, NS.xbrli, "period")[0];
  if (period === undefined) return undefined;
  const instant = trimmedText(childElements(period, NS.xbrli, "instant")[0]);
  if (instant !== undefined) return { instant };
  const startDate = trimmedText(childElements(period, NS.xbrli, "startDate")[0]);
  const endDate = trimmedText(childElements(period, NS.xbrli, "endDate")[0]);
  if (startDate !== undefined && endDate !== undefined) return { startDate, endDate };
  return childElements(period, NS.xbrli, "forever").length > 0 ? { forever: true } : undefined;
}

function readContext(context: Element): IxbrlContext {
  const entity = childElements(context, NS.xbrli, "entity")[0];
  const identifier = entity === undefined ? undefined : childElements(entity, NS.xbrli, "identifier")[0];
  const members = descendants(context, NS.xbrldi, "explicitMember").map((member) => ({
    dimension: attribute(member, "dimension") ?? "",
    member: member.textContent?.trim() ?? "",
  }));
  return {
    id: attribute(context, "id") ?? "",
    scheme: identifier === undefined ? undefined : attribute(identifier, "scheme"),
    identifier: trimmedText(identifier),
    period: readPeriod(context),
    members,
  };
}

function parse(xml: string, problems: string[]): Document | undefined {
  const parser = new DOMParser({
    onError: (level, message) => {
      problems.push(`XML ${level}: ${message}`);
    },
  });
  try {
    const document = parser.parseFromString(xml, "application/xml");
    return problems.length === 0 ? document : undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!problems.some((problem) => problem.includes(message))) problems.push(`XML fatalError: ${message}`);
    return undefined;
  }
}

/** Parses `xml` (as XML, never as lenient HTML) and reads its Inline XBRL content. */
export function readIxbrl(xml: string): IxbrlReading {
  const problems: string[] = [];
  const document = parse(xml, problems);
  if (document === undefined) {
    return { document, schemaRefs: [], contexts: [], units: [], facts: [], problems };
  }
  const schemaRefs = descendants(document, NS.link, "schemaRef").map((ref) => ref.getAttributeNS(NS.xlink, "href") ?? "");
  const contexts = descendants(document, NS.xbrli, "context").map(readContext);
  const units = descendants(document, NS.xbrli, "unit").map((unit) => ({
    id: attribute(unit, "id") ?? "",
    measures: descendants(unit, NS.xbrli, "measure").map((measure) => measure.textContent?.trim() ?? ""),
  }));
  const facts = [
    ...descendants(document, NS.ix, "nonNumeric").map((element) => readFact(element, "nonNumeric", problems)),
    ...descendants(document, NS.ix, "nonFraction").map((element) => readFact(element, "nonFraction", problems)),
  ];
  return { document, schemaRefs, contexts, units, facts, problems };
}
