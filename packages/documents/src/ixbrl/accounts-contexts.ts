import type { DormantAccountsInput } from "./dormant-accounts-input.ts";
import type { ContextDefinition, ExplicitMember } from "./inline-facts.ts";
import { DIMENSION, MEMBER } from "./taxonomy.ts";

/**
 * The contexts of a dormant accounts document. Ids follow one scheme: `cur`/`pri` for the current
 * or prior period, `d`/`i` for the duration or the instant at the balance sheet date, then the
 * dimension member for dimensional contexts (`cur-d-director1`, `cur-i-share-capital`, ...).
 * Dates (start, end, balance sheet, approval) are instant-typed concepts in the FRC taxonomy and
 * are all reported at the balance sheet date instant.
 */
export interface PeriodContexts {
  readonly duration: ContextDefinition;
  readonly instant: ContextDefinition;
  readonly creditorsWithinOneYear: ContextDefinition;
  readonly shareCapital: ContextDefinition;
  readonly retainedEarnings: ContextDefinition;
}

export interface AccountsContexts {
  readonly current: PeriodContexts;
  readonly prior: PeriodContexts | undefined;
  /** Current-period duration with one dimension member. */
  readonly dimension: (slug: string, member: ExplicitMember) => ContextDefinition;
}

function periodContexts(prefix: "cur" | "pri", startDate: string, endDate: string): PeriodContexts {
  const instant = { instant: endDate };
  const atInstant = (slug: string, dimension: string, member: string): ContextDefinition => ({
    id: `${prefix}-i-${slug}`,
    period: instant,
    members: [{ dimension, member }],
  });
  return {
    duration: { id: `${prefix}-d`, period: { startDate, endDate }, members: [] },
    instant: { id: `${prefix}-i`, period: instant, members: [] },
    creditorsWithinOneYear: atInstant("creditors-within-one-year", DIMENSION.maturities, MEMBER.withinOneYear),
    shareCapital: atInstant("share-capital", DIMENSION.equityClasses, MEMBER.shareCapital),
    retainedEarnings: atInstant("retained-earnings", DIMENSION.equityClasses, MEMBER.retainedEarnings),
  };
}

export function accountsContexts(input: DormantAccountsInput): AccountsContexts {
  const current = periodContexts("cur", input.periodStart, input.periodEnd);
  const prior = input.priorYear && periodContexts("pri", input.priorYear.periodStart, input.priorYear.periodEnd);
  return {
    current,
    prior,
    dimension: (slug, member) => ({ id: `cur-d-${slug}`, period: current.duration.period, members: [member] }),
  };
}
