import type { DormantAccountsInput } from "./dormant-accounts-input.ts";
import { type IxbrlContext, type IxbrlFact, type IxbrlReading } from "./read-ixbrl.ts";

/** A first-year dormant company holding its 100 pounds of share capital as cash. */
export function firstYearInput(overrides: Partial<DormantAccountsInput> = {}): DormantAccountsInput {
  return {
    companyName: "Dormant Example Limited",
    companyNumber: "00000001",
    registryCompanyType: "ltd",
    jurisdiction: "england-wales",
    periodStart: "2025-04-01",
    periodEnd: "2026-03-31",
    approvalDate: "2026-05-01",
    directorName: "Ada Lovelace",
    current: { cash: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 0 },
    ...overrides,
  };
}

/** A second-year company whose prior balance sheet showed the share capital as not yet paid. */
export function withPriorYearInput(overrides: Partial<DormantAccountsInput> = {}): DormantAccountsInput {
  return firstYearInput({
    priorYear: {
      periodStart: "2024-04-01",
      periodEnd: "2025-03-31",
      cash: 0,
      sharesNotPaid: 10_000,
      creditors: 0,
      shareCapital: 10_000,
      profitLossAccount: 0,
    },
    ...overrides,
  });
}

export function contextOf(reading: IxbrlReading, fact: IxbrlFact): IxbrlContext {
  const context = reading.contexts.find((candidate) => candidate.id === fact.contextRef);
  if (context === undefined) throw new Error(`${fact.name} has no declared context`);
  return context;
}

/**
 * The facts named `name` whose context has exactly the given dimension members (none by default)
 * and, when given, the given period end or instant.
 */
export function factsNamed(
  reading: IxbrlReading,
  name: string,
  members: Readonly<Record<string, string>> = {},
  at?: string,
): IxbrlFact[] {
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
export function valueOf(reading: IxbrlReading, name: string, members: Readonly<Record<string, string>> = {}, at?: string): string {
  const values = new Set(factsNamed(reading, name, members, at).map((fact) => fact.value));
  if (values.size !== 1) throw new Error(`${name} has ${values.size} distinct values`);
  const [value] = values;
  if (value === undefined) throw new Error(`${name} has no readable value`);
  return value;
}

