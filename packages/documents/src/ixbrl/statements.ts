import { CONCEPT } from "./taxonomy.ts";

/**
 * The statements the Companies Act 2006 requires on the balance sheet of audit-exempt dormant
 * micro-entity accounts, with their FRC `direp` concepts. The wording carries the phrases the UK
 * filing rules look for (section numbers, "members have not required", "directors acknowledge",
 * "prepared in accordance with ... micro-entity provisions").
 */
export interface Statement {
  readonly concept: string;
  readonly text: string;
}

/** `noun` is "year" or "period"; `periodEndLong` is e.g. "31 March 2026". */
export function dormantAccountsStatements(noun: string, periodEndLong: string): readonly Statement[] {
  return [
    {
      concept: CONCEPT.statementAuditExemptionDormant,
      text:
        `For the ${noun} ending ${periodEndLong} the company was entitled to exemption from audit under ` +
        "section 480 of the Companies Act 2006 relating to dormant companies.",
    },
    {
      concept: CONCEPT.statementMembersNotRequiredAudit,
      text: "The members have not required the company to obtain an audit in accordance with section 476 of the Companies Act 2006.",
    },
    {
      concept: CONCEPT.statementDirectorsResponsibilities,
      text:
        "The directors acknowledge their responsibilities for complying with the requirements of the Companies Act 2006 " +
        "with respect to accounting records and the preparation of accounts.",
    },
    {
      concept: CONCEPT.statementMicroEntityProvisions,
      text:
        "These accounts have been prepared in accordance with the provisions applicable to companies subject to the " +
        "small companies regime and in accordance with the micro-entity provisions.",
    },
  ];
}

/**
 * The principal activity of a company dormant for the whole period (`bus:DescriptionPrincipalActivities`,
 * mandatory in the joint filing checks, JFCVC 3312). `noun` is "year" or "period".
 */
export function dormantPrincipalActivity(noun: string): string {
  return `The company has been dormant throughout the ${noun}.`;
}
