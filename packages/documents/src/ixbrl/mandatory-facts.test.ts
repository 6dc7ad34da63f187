import { describe, expect, it } from "vitest";
import { firstYearInput, withPriorYearInput } from "../test-support/dormant-accounts-inputs.ts";
import { contextOf, singleFactValue } from "../test-support/ixbrl-facts.ts";
import { frcLocalName, JOINT_FILING_MANDATORY_CONCEPTS, missingMandatoryFacts } from "./mandatory-facts.ts";
import { readIxbrl } from "./read-ixbrl.ts";
import { renderDormantAccountsIxbrl } from "./render-dormant-accounts.ts";

const variants = {
  "first year": firstYearInput(),
  "with comparatives": withPriorYearInput(),
  "company limited by guarantee, no jurisdiction": firstYearInput({
    registryCompanyType: "private-limited-guarant-nsc",
    jurisdiction: undefined,
  }),
  "Scottish company, no longer trading, short period": firstYearInput({
    companyNumber: "SC000001",
    jurisdiction: "scotland",
    tradingStatus: "no-longer-trading",
    periodStart: "2025-06-01",
  }),
};

describe("facts the joint filing checks require (JFCVC 3312, Arelle's UK rules)", () => {
  const concepts = JOINT_FILING_MANDATORY_CONCEPTS.map((concept) => concept.localName);

  it("lists the FRS-2022 mandatory items of Arelle's UK plugin and the registered number, each with its source", () => {
    expect([...concepts].sort()).toEqual(
      [
        "AccountingStandardsApplied",
        "AccountsStatusAuditedOrUnaudited",
        "AccountsType",
        "AverageNumberEmployeesDuringPeriod",
        "BalanceSheetDate",
        "DateAuthorisationFinancialStatementsForIssue",
        "DescriptionPrincipalActivities",
        "DirectorSigningFinancialStatements",
        "EndDateForPeriodCoveredByReport",
        "EntityCurrentLegalOrRegisteredName",
        "EntityDormantTruefalse",
        "EntityTradingStatus",
        "LegalFormEntity",
        "StartDateForPeriodCoveredByReport",
        "UKCompaniesHouseRegisteredNumber",
      ].sort(),
    );
    for (const concept of JOINT_FILING_MANDATORY_CONCEPTS)
      expect(concept.source).toMatch(/^Arelle\/Arelle arelle\/plugin\/validate\/UK\/__init__\.py: /);
  });

  it.each(Object.entries(variants))("%s: nothing is missing", (_name, input) => {
    expect(missingMandatoryFacts(readIxbrl(renderDormantAccountsIxbrl(input)))).toEqual([]);
  });

  it.each(concepts)("%s is tagged in a context aligned with the period", (concept) => {
    const input = withPriorYearInput();
    const reading = readIxbrl(renderDormantAccountsIxbrl(input));
    const aligned = reading.facts.filter((fact) => {
      if (frcLocalName(fact) !== concept) return false;
      const period = contextOf(reading, fact).period;
      return (
        period !== undefined &&
        (("instant" in period && period.instant === input.periodEnd) ||
          ("startDate" in period && period.startDate === input.periodStart && period.endDate === input.periodEnd))
      );
    });
    expect(aligned.length).toBeGreaterThan(0);
    // Taking that concept's facts out of the document makes the check report it.
    let stripped = renderDormantAccountsIxbrl(input);
    for (const fact of reading.facts.filter((candidate) => frcLocalName(candidate) === concept))
      stripped = stripped.replaceAll(`name="${fact.name}"`, 'name="bus:Removed"');
    expect(missingMandatoryFacts(readIxbrl(stripped))).toContain(concept);
  });

  it("states the dormant company's principal activity (bus:DescriptionPrincipalActivities, check 3312) for the period", () => {
    const year = readIxbrl(renderDormantAccountsIxbrl(firstYearInput()));
    expect(singleFactValue(year, "bus:DescriptionPrincipalActivities", {}, "2026-03-31")).toBe(
      "The company has been dormant throughout the year.",
    );
    const short = readIxbrl(renderDormantAccountsIxbrl(firstYearInput({ periodStart: "2025-06-01" })));
    const [fact] = short.facts.filter((candidate) => candidate.name === "bus:DescriptionPrincipalActivities");
    expect(fact?.value).toBe("The company has been dormant throughout the period.");
    expect(fact?.hidden).toBe(false);
    expect(fact && contextOf(short, fact).period).toEqual({ startDate: "2025-06-01", endDate: "2026-03-31" });
  });

  it("does not take a start date reported at another instant (as the check decides it)", () => {
    const xml = renderDormantAccountsIxbrl(firstYearInput());
    const reading = readIxbrl(xml);
    const start = reading.facts.find((fact) => fact.name === "bus:StartDateForPeriodCoveredByReport");
    expect(start && contextOf(reading, start).period).toEqual({ instant: "2026-03-31" });
    expect(missingMandatoryFacts(readIxbrl(xml.replace("2026-03-31</xbrli:instant>", "2025-04-01</xbrli:instant>")))).toContain(
      "EndDateForPeriodCoveredByReport",
    );
  });
});
