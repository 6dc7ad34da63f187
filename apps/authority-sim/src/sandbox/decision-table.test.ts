import { SANDBOX_ANY_OTHER_COMPANY, SANDBOX_COMPANIES, type SandboxOutcome, UNKNOWN_COMPANY_NUMBER } from "@dormant/contracts";
import { describe, expect, it } from "vitest";
import { SandboxDecisionTable } from "./decision-table.ts";
import type { Scenario } from "./scenarios.ts";

/** The final status the filing service gives what the simulator plays at both authorities. */
function outcomeOf(scenario: Scenario): { tax: SandboxOutcome; registry: SandboxOutcome } {
  const tax: SandboxOutcome = scenario.tax.kind === "accept" ? "accepted" : scenario.tax.kind === "no-answer" ? "error" : "rejected";
  const registry: SandboxOutcome =
    scenario.registry.kind === "accept" || scenario.registry.kind === "parked-then-accept"
      ? "accepted"
      : scenario.registry.kind === "reject"
        ? "rejected"
        : "error";
  return { tax, registry };
}

describe("the simulator's decision table", () => {
  const table = new SandboxDecisionTable();

  it("plays, for every row of the shared sandbox table, what a test key's filing of that number reports", () => {
    for (const [companyNumber, row] of Object.entries(SANDBOX_COMPANIES)) {
      const scenario = table.scenarioFor(companyNumber);
      expect(scenario.name, companyNumber).toBe(row.scenario);
      expect(outcomeOf(scenario), companyNumber).toEqual({ tax: row.outcome, registry: row.outcome });
      expect(scenario.immediate, companyNumber).toBe(row.immediate);
    }
    expect(table.scenarioFor("12345678").name).toBe(SANDBOX_ANY_OTHER_COMPANY.scenario);
  });

  it("does not know the one unknown company, which the sandbox table does not list", () => {
    expect(SANDBOX_COMPANIES[UNKNOWN_COMPANY_NUMBER]).toBeUndefined();
    expect(table.scenarioFor(UNKNOWN_COMPANY_NUMBER)).toMatchObject({ name: "company-not-found", knownToRegistry: false });
  });

  it("lets a run-time override win over the table, and forgets it when cleared", () => {
    table.override("00000001", "utr-mismatch");
    expect(table.scenarioFor("00000001").name).toBe("utr-mismatch");
    table.clearOverrides();
    expect(table.scenarioFor("00000001").name).toBe("accepted");
  });
});
