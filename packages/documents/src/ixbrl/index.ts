export { renderDormantAccountsIxbrl } from "./render-dormant-accounts.ts";
export {
  DormantAccountsInputError,
  findDormantAccountsInputProblems,
  type BalanceSheetFigures,
  type DormantAccountsInput,
  type PriorYearFigures,
} from "./dormant-accounts-input.ts";
export type { RegistryCompanyType, RegistryJurisdiction, TradingStatus } from "./legal-form.ts";
export { balanceSheetLines, type BalanceSheetLines } from "./balance-sheet.ts";
export { checkIxbrlConsistency, type IxbrlConsistencyReport } from "./check-ixbrl-consistency.ts";
export { frcLocalName, JOINT_FILING_MANDATORY_CONCEPTS, missingMandatoryFacts, type MandatoryConcept } from "./mandatory-facts.ts";
export {
  LEGACY_IXT,
  readIxbrl,
  type IxbrlContext,
  type IxbrlFact,
  type IxbrlPeriod,
  type IxbrlReading,
  type IxbrlUnit,
} from "./read-ixbrl.ts";
export { escapeXml, XmlCharacterError } from "./escape-xml.ts";
export { FRC_ENTRY_POINT, NS as IXBRL_NAMESPACES, REGISTRY_IDENTIFIER_SCHEME } from "./taxonomy.ts";
