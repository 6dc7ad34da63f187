import { SCENARIOS, type Scenario, type ScenarioName } from "./scenarios.ts";

/** The sandbox table: company number -> scenario. Any other well-formed number is `accepted`. */
export const COMPANY_TABLE: Readonly<Record<string, ScenarioName>> = {
  "00000001": "accepted",
  "00000002": "utr-mismatch",
  "00000003": "already-filed",
  "00000004": "gateway-timeout",
  "00000005": "accepted-immediately",
  "00000006": "parked-then-accepted",
  SC000001: "accepted",
  SC000002: "company-dissolved",
  NI000001: "accepted",
  NI000002: "auth-code-invalid",
  "99999999": "company-not-found",
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
