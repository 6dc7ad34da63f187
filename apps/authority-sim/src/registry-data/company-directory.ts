import { COMPANY_NUMBER } from "../company-number.ts";
import type { SandboxDecisionTable } from "../sandbox/decision-table.ts";
import { buildRegistryCompany, type RegistryCompany } from "./registry-company.ts";
import { syntheticCompanySpec } from "./synthetic-company.ts";
import { TABLE_COMPANIES } from "./table-companies.ts";

/** The registry's records: the table companies, and a synthetic company for any other number. */
export class CompanyDirectory {
  readonly #table: ReadonlyMap<string, RegistryCompany>;

  constructor(
    private readonly decisionTable: SandboxDecisionTable,
    private readonly asOf: string,
  ) {
    this.#table = new Map(TABLE_COMPANIES.map((spec) => [spec.number, buildRegistryCompany(spec, asOf)]));
  }

  /** The company, or undefined when the registry does not know it (bad format, or not-found scenario). */
  find(companyNumber: string): RegistryCompany | undefined {
    if (!COMPANY_NUMBER.test(companyNumber)) return undefined;
    if (!this.decisionTable.scenarioFor(companyNumber).knownToRegistry) return undefined;
    return this.#table.get(companyNumber) ?? buildRegistryCompany(syntheticCompanySpec(companyNumber, this.asOf), this.asOf);
  }
}
