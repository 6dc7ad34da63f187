import type { CompanyProfile } from "../schemas.ts";

/**
 * Registry company type codes this service files dormant accounts and nil CT600 returns for:
 * UK companies that can be dormant under the Companies Act 2006 s.1169 and claim the s.480
 * audit exemption. LLPs, partnerships, overseas companies and the other registry types file
 * different forms (or no CT600) and are refused.
 */
export const SUPPORTED_ENTITY_TYPES = [
  "ltd",
  "plc",
  "private-unlimited",
  "private-unlimited-nsc",
  "private-limited-guarant-nsc",
  "private-limited-guarant-nsc-limited-exemption",
  "private-limited-shares-section-30-exemption",
] as const;

export type SupportedEntityType = (typeof SUPPORTED_ENTITY_TYPES)[number];

/** Types with no share capital ("nsc"): limited by guarantee, or unlimited without shares. */
const WITHOUT_SHARE_CAPITAL: ReadonlySet<string> = new Set([
  "private-unlimited-nsc",
  "private-limited-guarant-nsc",
  "private-limited-guarant-nsc-limited-exemption",
]);

export function isSupportedEntityType(code: string): code is SupportedEntityType {
  return (SUPPORTED_ENTITY_TYPES as readonly string[]).includes(code);
}

export function entityTypeHasShareCapital(code: string): boolean {
  return !WITHOUT_SHARE_CAPITAL.has(code);
}

/** The registry XML gateway's `FormHeader/CompanyType` for the registers this service supports. */
export type RegistryCompanyType = "EW" | "SC" | "NI";

const BY_JURISDICTION: Readonly<Record<string, RegistryCompanyType>> = {
  "england-wales": "EW",
  england: "EW",
  // Companies registered in Wales are on the England and Wales register (plain numbers).
  wales: "EW",
  scotland: "SC",
  "northern-ireland": "NI",
};

/**
 * The XML gateway CompanyType: from the profile's jurisdiction; when that is absent or not a
 * UK register (united-kingdom, european-union, ...), from the company number: SC... -> SC,
 * NI... -> NI, eight digits -> EW. Null when neither tells (e.g. an LLP's OC/SO/NC number or
 * an old R... Northern Ireland number, whose gateway types this service does not send).
 */
export function deriveRegistryCompanyType(profile: Pick<CompanyProfile, "jurisdiction" | "company_number">): RegistryCompanyType | null {
  const byJurisdiction = profile.jurisdiction === undefined ? undefined : BY_JURISDICTION[profile.jurisdiction];
  if (byJurisdiction !== undefined) return byJurisdiction;
  if (/^SC\d{6}$/.test(profile.company_number)) return "SC";
  if (/^NI\d{6}$/.test(profile.company_number)) return "NI";
  if (/^\d{8}$/.test(profile.company_number)) return "EW";
  return null;
}

export interface EntityType {
  /**
   * The registry entity type code exposed as `entity_type` in the accounts API: the registry's
   * own company type code (`ltd`, `plc`, `private-limited-guarant-nsc`, ...), unchanged.
   */
  entityType: string;
  registryCompanyType: RegistryCompanyType | null;
}

export function deriveEntityType(profile: Pick<CompanyProfile, "type" | "jurisdiction" | "company_number">): EntityType {
  return { entityType: profile.type, registryCompanyType: deriveRegistryCompanyType(profile) };
}
