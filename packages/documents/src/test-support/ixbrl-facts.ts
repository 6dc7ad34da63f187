import type { IxbrlContext, IxbrlFact, IxbrlReading } from "../ixbrl/read-ixbrl.ts";

/** The context a fact refers to; fails when the document does not declare it. */
export function contextOf(reading: IxbrlReading, fact: IxbrlFact): IxbrlContext {
  const context = reading.contexts.find((candidate) => candidate.id === fact.contextRef);
  if (context === undefined) throw new Error(`${fact.name} has no declared context`);
  return context;
}

/**
 * The facts named `name` whose context has exactly the given dimension members (none by default)
 * and, when given, the given period end or instant.
 */
export function factsNamed(reading: IxbrlReading, name: string, members: Readonly<Record<string, string>> = {}, at?: string): IxbrlFact[] {
  const wanted = Object.entries(members).sort();
  return reading.facts.filter((fact) => {
    if (fact.name !== name) return false;
    const context = contextOf(reading, fact);
    const have = context.members.map(({ dimension, member }) => [dimension, member] as const).sort();
    if (JSON.stringify(have) !== JSON.stringify(wanted)) return false;
    if (at === undefined) return true;
    const period = context.period;
    return period !== undefined && (("instant" in period && period.instant === at) || ("endDate" in period && period.endDate === at));
  });
}

/** The single value of a fact; fails when it is missing or reported with different values. */
export function singleFactValue(reading: IxbrlReading, name: string, members: Readonly<Record<string, string>> = {}, at?: string): string {
  const values = new Set(factsNamed(reading, name, members, at).map((fact) => fact.value));
  if (values.size !== 1) throw new Error(`${name} has ${values.size} distinct values`);
  const [value] = values;
  if (value === undefined) throw new Error(`${name} has no readable value`);
  return value;
}
