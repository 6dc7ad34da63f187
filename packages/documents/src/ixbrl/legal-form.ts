import { MEMBER } from "./taxonomy.ts";

/**
 * What the registry's company type and jurisdiction codes mean for the accounts: the
 * `bus:LegalFormEntityDimension` and `countries:CountriesRegionsDimension` members, and the words a
 * reader sees. Only company types that may prepare micro-entity accounts are accepted: public
 * companies are outside the small companies regime (Companies Act 2006 s384), so their accounts
 * cannot carry the micro-entity statement.
 */

export interface LegalForm {
  readonly member: string;
  /** Completes "X is ...". */
  readonly description: string;
  /** Heading of the capital and reserves total. */
  readonly fundsLabel: string;
}

const PRIVATE_LIMITED_BY_SHARES: LegalForm = {
  member: "bus:PrivateLimitedCompanyLtd",
  description: "a private company limited by shares",
  fundsLabel: "Shareholders' funds",
};
const LIMITED_BY_GUARANTEE: LegalForm = {
  member: "bus:CompanyLimitedByGuarantee",
  description: "a private company limited by guarantee",
  fundsLabel: "Members' funds",
};
const UNLIMITED: LegalForm = {
  member: "bus:UnlimitedCompany",
  description: "a private unlimited company",
  fundsLabel: "Shareholders' funds",
};

/** Registry company type codes (public data API `type`) that this renderer supports. */
export const LEGAL_FORMS = {
  ltd: PRIVATE_LIMITED_BY_SHARES,
  "private-limited-shares-section-30-exemption": PRIVATE_LIMITED_BY_SHARES,
  "private-limited-guarant-nsc": LIMITED_BY_GUARANTEE,
  "private-limited-guarant-nsc-limited-exemption": LIMITED_BY_GUARANTEE,
  "private-unlimited": UNLIMITED,
  "private-unlimited-nsc": UNLIMITED,
} as const satisfies Record<string, LegalForm>;

export type RegistryCompanyType = keyof typeof LEGAL_FORMS;

export function isSupportedCompanyType(type: string): type is RegistryCompanyType {
  return Object.hasOwn(LEGAL_FORMS, type);
}

export interface Jurisdiction {
  readonly member: string;
  readonly name: string;
}

/** Registry jurisdiction codes (public data API `jurisdiction`) for companies registered in the UK. */
export const JURISDICTIONS = {
  "england-wales": { member: "countries:EnglandWales", name: "England and Wales" },
  wales: { member: "countries:Wales", name: "Wales" },
  scotland: { member: "countries:Scotland", name: "Scotland" },
  "northern-ireland": { member: "countries:NorthernIreland", name: "Northern Ireland" },
} as const satisfies Record<string, Jurisdiction>;

export type RegistryJurisdiction = keyof typeof JURISDICTIONS;

export function isSupportedJurisdiction(code: string): code is RegistryJurisdiction {
  return Object.hasOwn(JURISDICTIONS, code);
}

export type TradingStatus = "never-traded" | "no-longer-trading";

export const TRADING_STATUS_MEMBER: Readonly<Record<TradingStatus, string>> = {
  "never-traded": MEMBER.neverTraded,
  "no-longer-trading": MEMBER.noLongerTrading,
};
