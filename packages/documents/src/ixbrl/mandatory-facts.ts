import type { IxbrlContext, IxbrlFact, IxbrlReading } from "./read-ixbrl.ts";
import { REGISTRY_IDENTIFIER_SCHEME } from "./taxonomy.ts";

/** Namespaces of the FRC taxonomies (core, bus, direp, ... of every year). */
const FRC_NAMESPACE_PREFIX = "http://xbrl.frc.org.uk/";

/** One concept the joint filing checks (JFCVC 3312) require, with where the requirement is stated. */
export interface MandatoryConcept {
  /** Local name, in any FRC taxonomy year. */
  readonly localName: string;
  readonly source: string;
}

const ARELLE = "Arelle/Arelle arelle/plugin/validate/UK/__init__.py";

/**
 * The concepts check 3312 of the joint filing common validation checks requires in accounts
 * tagged with an FRC taxonomy that has `AccountsType` (2022 and later), as Arelle's UK rules
 * implement them (`MANDATORY_ITEMS["FRS-2022"]`), plus the registered number, mandatory when a
 * context is identified by the registry's scheme.
 */
export const JOINT_FILING_MANDATORY_CONCEPTS: readonly MandatoryConcept[] = [
  ...[
    "AverageNumberEmployeesDuringPeriod",
    "EntityCurrentLegalOrRegisteredName",
    "StartDateForPeriodCoveredByReport",
    "EndDateForPeriodCoveredByReport",
    "BalanceSheetDate",
  ].map((localName) => ({ localName, source: `${ARELLE}: COMMON_MANDATORY_ITEMS` })),
  ...[
    "DateAuthorisationFinancialStatementsForIssue",
    "DirectorSigningFinancialStatements",
    "EntityDormantTruefalse",
    "EntityTradingStatus",
    "AccountingStandardsApplied",
    "AccountsStatusAuditedOrUnaudited",
    "LegalFormEntity",
    "DescriptionPrincipalActivities",
  ].map((localName) => ({ localName, source: `${ARELLE}: COMMON_MANDATORY_FRS_ITEMS` })),
  { localName: "AccountsType", source: `${ARELLE}: MANDATORY_ITEMS["FRS-2022"]` },
  {
    localName: "UKCompaniesHouseRegisteredNumber",
    source: `${ARELLE}: mandatory when a context uses the scheme ${REGISTRY_IDENTIFIER_SCHEME}`,
  },
];

/** The local name of a fact whose concept is in an FRC taxonomy; undefined otherwise. */
export function frcLocalName(fact: IxbrlFact): string | undefined {
  const [prefix, local] = fact.name.includes(":") ? fact.name.split(":", 2) : [null, fact.name];
  const namespace = fact.element.lookupNamespaceURI(prefix ?? null);
  return namespace?.startsWith(FRC_NAMESPACE_PREFIX) ? local : undefined;
}

/**
 * The mandatory concepts (JOINT_FILING_MANDATORY_CONCEPTS) that no fact reports in a context
 * aligned with the reporting period, as check 3312 decides it: the end date is the value of an
 * `EndDateForPeriodCoveredByReport` fact reported at an instant equal to that value; the start
 * date is the value of a `StartDateForPeriodCoveredByReport` fact reported at the end-date
 * instant; every other concept needs a fact at the end-date instant or for the duration from
 * the start date to the end date (dimensional contexts included). Sorted, empty when complete.
 */
export function missingMandatoryFacts(reading: IxbrlReading): string[] {
  const contexts = new Map<string, IxbrlContext>(reading.contexts.map((context) => [context.id, context]));
  const byConcept = new Map<string, { fact: IxbrlFact; context: IxbrlContext }[]>();
  for (const fact of reading.facts) {
    const localName = frcLocalName(fact);
    const context = fact.contextRef === undefined ? undefined : contexts.get(fact.contextRef);
    if (localName === undefined || context === undefined || fact.value === undefined) continue;
    byConcept.set(localName, [...(byConcept.get(localName) ?? []), { fact, context }]);
  }
  const instantOf = (context: IxbrlContext) =>
    context.period !== undefined && "instant" in context.period ? context.period.instant : undefined;
  const missing: string[] = [];
  const endDate = byConcept
    .get("EndDateForPeriodCoveredByReport")
    ?.find(({ fact, context }) => instantOf(context) === fact.value?.trim())
    ?.fact.value?.trim();
  if (endDate === undefined) missing.push("EndDateForPeriodCoveredByReport");
  const startDate =
    endDate === undefined
      ? undefined
      : byConcept
          .get("StartDateForPeriodCoveredByReport")
          ?.find(({ context }) => instantOf(context) === endDate)
          ?.fact.value?.trim();
  if (startDate === undefined) missing.push("StartDateForPeriodCoveredByReport");
  if (startDate !== undefined && endDate !== undefined) {
    const hasCompanyContext = reading.contexts.some((context) => context.scheme === REGISTRY_IDENTIFIER_SCHEME);
    const aligned = (context: IxbrlContext) => {
      const period = context.period;
      if (period === undefined) return false;
      if ("instant" in period) return period.instant === endDate;
      return "startDate" in period && period.startDate === startDate && period.endDate === endDate;
    };
    for (const { localName } of JOINT_FILING_MANDATORY_CONCEPTS) {
      if (localName === "StartDateForPeriodCoveredByReport" || localName === "EndDateForPeriodCoveredByReport") continue;
      if (localName === "UKCompaniesHouseRegisteredNumber" && !hasCompanyContext) continue;
      if (!(byConcept.get(localName) ?? []).some(({ context }) => aligned(context))) missing.push(localName);
    }
  }
  return missing.sort();
}
