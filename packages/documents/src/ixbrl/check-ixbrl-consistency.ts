import type { Element } from "@xmldom/xmldom";
import { isValidIsoDate } from "@dormant/company-data";
import { readIxbrl, type IxbrlContext, type IxbrlReading } from "./read-ixbrl.ts";
import { NS } from "./taxonomy.ts";

export interface IxbrlConsistencyReport {
  readonly problems: string[];
}

function prefixBound(element: Element, qname: string): boolean {
  const match = /^([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*$/.exec(qname);
  return match !== null && element.lookupNamespaceURI(match[1] ?? null) !== null;
}

function checkDocumentShape(reading: IxbrlReading, problems: string[]): void {
  const document = reading.document;
  if (document === undefined) return;
  const root = document.documentElement;
  if (root === null || root.namespaceURI !== NS.xhtml || root.localName !== "html") {
    problems.push("the root element is not an XHTML <html> element");
  }
  if (document.doctype !== null) problems.push("the document has a DOCTYPE (no DTD or external entity is allowed)");
  for (const element of Array.from(document.getElementsByTagName("*"))) {
    if (element.localName === "script") problems.push("the document contains a <script> element");
    for (const attribute of Array.from(element.attributes)) {
      if (/^on/i.test(attribute.localName ?? attribute.name)) {
        problems.push(`<${element.tagName}> has an event handler attribute ${attribute.name}`);
      }
    }
  }
  const headers = document.getElementsByTagNameNS(NS.ix, "header").length;
  if (headers !== 1) problems.push(`expected exactly one ix:header, found ${headers}`);
  if (reading.schemaRefs.length === 0 || reading.schemaRefs.some((href) => href === "")) {
    problems.push("ix:references has no link:schemaRef with an xlink:href");
  }
}

function checkPeriod(context: IxbrlContext, problems: string[]): void {
  const period = context.period;
  if (period === undefined) {
    problems.push(`context ${context.id} has no period`);
  } else if ("instant" in period) {
    if (!isValidIsoDate(period.instant)) problems.push(`context ${context.id} instant ${period.instant} is not a YYYY-MM-DD date`);
  } else if ("startDate" in period) {
    if (!isValidIsoDate(period.startDate) || !isValidIsoDate(period.endDate)) {
      problems.push(`context ${context.id} period ${period.startDate}..${period.endDate} is not made of YYYY-MM-DD dates`);
    } else if (period.endDate < period.startDate) {
      problems.push(`context ${context.id} ends before it starts`);
    }
  }
}

function checkContextsAndUnits(reading: IxbrlReading, problems: string[]): void {
  const ids = new Set<string>();
  const entities = new Set<string>();
  for (const context of reading.contexts) {
    if (context.id === "") problems.push("a context has no id");
    if (ids.has(context.id)) problems.push(`context id ${context.id} is declared more than once`);
    ids.add(context.id);
    if (!context.scheme || !context.identifier) {
      problems.push(`context ${context.id} has no entity identifier with a scheme`);
    } else {
      entities.add(`${context.scheme} ${context.identifier}`);
    }
    checkPeriod(context, problems);
    for (const { dimension, member } of context.members) {
      if (dimension === "" || member === "") problems.push(`context ${context.id} has an empty dimension member`);
    }
  }
  if (entities.size > 1) problems.push(`contexts name more than one entity: ${[...entities].join(", ")}`);
  for (const element of reading.document === undefined
    ? []
    : Array.from(reading.document.getElementsByTagNameNS(NS.xbrldi, "explicitMember"))) {
    for (const qname of [element.getAttribute("dimension") ?? "", element.textContent?.trim() ?? ""]) {
      if (!prefixBound(element, qname)) problems.push(`dimension member ${qname} has no declared namespace prefix`);
    }
  }
  const unitIds = new Set<string>();
  for (const unit of reading.units) {
    if (unitIds.has(unit.id)) problems.push(`unit id ${unit.id} is declared more than once`);
    unitIds.add(unit.id);
    if (unit.measures.length === 0 || unit.measures.some((measure) => measure === "")) {
      problems.push(`unit ${unit.id} has no measure`);
    }
  }
}

function checkFacts(reading: IxbrlReading, problems: string[]): void {
  const contextIds = new Set(reading.contexts.map((context) => context.id));
  const unitsById = new Map(reading.units.map((unit) => [unit.id, unit]));
  const usedContexts = new Set<string>();
  const usedUnits = new Set<string>();
  const values = new Map<string, string | undefined>();
  const monetaryDecimals = new Set<string>();

  for (const fact of reading.facts) {
    const label = `${fact.kind} ${fact.name || "(no name)"}`;
    if (!prefixBound(fact.element, fact.name)) problems.push(`${label} has a name without a declared namespace prefix`);
    if (fact.contextRef === undefined) {
      problems.push(`${label} has no contextRef`);
    } else {
      usedContexts.add(fact.contextRef);
      if (!contextIds.has(fact.contextRef)) problems.push(`${label} refers to undeclared context ${fact.contextRef}`);
    }
    if (fact.kind === "nonFraction") {
      if (fact.unitRef === undefined) {
        problems.push(`${label} has no unitRef`);
      } else {
        usedUnits.add(fact.unitRef);
        const unit = unitsById.get(fact.unitRef);
        if (unit === undefined) problems.push(`${label} refers to undeclared unit ${fact.unitRef}`);
        else if (unit.measures.some((measure) => measure.startsWith("iso4217:")) && fact.decimals !== undefined) {
          monetaryDecimals.add(fact.decimals);
        }
      }
      if (fact.decimals === undefined || !/^(-?\d+|INF)$/.test(fact.decimals)) {
        problems.push(`${label} needs decimals (an integer or INF)`);
      }
      if (fact.sign !== undefined && fact.sign !== "-") problems.push(`${label} has sign="${fact.sign}" (only "-" is allowed)`);
    } else if (fact.unitRef !== undefined) {
      problems.push(`${label} is non-numeric but has a unitRef`);
    }
    const key = `${fact.name}|${fact.contextRef ?? ""}|${fact.unitRef ?? ""}`;
    if (values.has(key) && values.get(key) !== fact.value) {
      problems.push(`${fact.name} in context ${fact.contextRef ?? ""} is reported with different values`);
    }
    values.set(key, fact.value);
  }
  for (const id of contextIds) if (!usedContexts.has(id)) problems.push(`context ${id} is declared but not used`);
  for (const id of unitsById.keys()) if (!usedUnits.has(id)) problems.push(`unit ${id} is declared but not used`);
  if (monetaryDecimals.size > 1) {
    problems.push(`monetary facts mix decimals values ${[...monetaryDecimals].sort().join(" and ")}`);
  }
}

/**
 * Checks an Inline XBRL document for the faults a filing must never carry: XML that is not
 * well-formed, a DOCTYPE or script, a missing header or schema reference, facts whose context or
 * unit is not declared, contexts and units declared but unused, more than one entity, malformed
 * periods, values that do not match their format, inconsistent duplicate facts and monetary facts
 * with mixed precision. It does not load the taxonomy, so it cannot check concept names or period
 * types against it.
 */
export function checkIxbrlConsistency(xml: string): IxbrlConsistencyReport {
  const reading = readIxbrl(xml);
  const problems = [...reading.problems];
  if (reading.document === undefined) return { problems };
  checkDocumentShape(reading, problems);
  checkContextsAndUnits(reading, problems);
  checkFacts(reading, problems);
  return { problems };
}
