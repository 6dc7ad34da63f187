import { SANDBOX_COMPANIES, UNKNOWN_COMPANY_NUMBER } from "@dormant/contracts";
import { SCENARIOS, type Scenario, type ScenarioName } from "./scenarios.ts";

/**
 * Company number -> scenario: the shared sandbox table's rows (the gateway's sandbox reads the
 * same), plus the one number the registry does not know. Any other well-formed number is `accepted`.
 */
export const COMPANY_TABLE: Readonly<Record<string, ScenarioName>> = {
  ...Object.fromEntries(Object.entries(SANDBOX_COMPANIES).map(([companyNumber, row]) => [companyNumber, row.scenario])),
  [UNKNOWN_COMPANY_NUMBER]: "company-not-found",
};

/**
 * The sandbox decision table: which scenario a company number gets, from the table plus the
 * run-time overrides (set through `/_control/outcomes`).
 */
export class SandboxDecisionTable {
  readonly #overrides = new Map<string, ScenarioName>();

  scenarioFor(companyNumber: string): Scenario {
    const name = this.#overrides.get(companyNumber) ?? COMPANY_TABLE[companyNumber] ?? "accepted";
    return SCENARIOS[name];
  }

  override(companyNumber: string, scenario: ScenarioName): void {
    this.#overrides.set(companyNumber, scenario);
  }

  clearOverride(companyNumber: string): boolean {
    return this.#overrides.delete(companyNumber);
  }

  clearOverrides(): void {
    this.#overrides.clear();
  }

  overrides(): Record<string, ScenarioName> {
    return Object.fromEntries(this.#overrides);
  }
}
