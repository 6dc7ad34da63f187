import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ACCEPTED_ACCOUNTS_CORPUS as CORPUS } from "../testing/accepted-accounts.ts";
import { withPriorYearInput } from "../test-support/dormant-accounts-inputs.ts";
import { contextOf } from "../test-support/ixbrl-facts.ts";
import { frcLocalName, missingMandatoryFacts } from "./mandatory-facts.ts";
import { readIxbrl, type IxbrlReading } from "./read-ixbrl.ts";
import { renderDormantAccountsIxbrl } from "./render-dormant-accounts.ts";
import { FRC_ENTRY_POINT, NS } from "./taxonomy.ts";

const files = readdirSync(CORPUS)
  .filter((name) => name.endsWith(".html"))
  .sort();
const text = (name: string) => readFileSync(new URL(name, CORPUS), "utf8");
const readings = new Map<string, IxbrlReading>(files.map((name) => [name, readIxbrl(text(name))]));
const reading = (name: string): IxbrlReading => {
  const found = readings.get(name);
  if (found === undefined) throw new Error(`${name} is not in the corpus`);
  return found;
};

/** Concept local name and period kind of every FRC fact: what "tagging the same fact class" compares. */
function factClasses(accounts: IxbrlReading): Set<string> {
  const classes = new Set<string>();
  for (const fact of accounts.facts) {
    const localName = frcLocalName(fact);
    const period = contextOf(accounts, fact).period;
    if (localName === undefined || period === undefined) continue;
    classes.add(`${localName} (${"instant" in period ? "instant" : "duration"})`);
  }
  return classes;
}

const isDormant = (accounts: IxbrlReading) =>
  accounts.facts.some((fact) => frcLocalName(fact) === "EntityDormantTruefalse" && fact.value === "true");

/**
 * Fact classes an accepted dormant filing tags that the platform's dormant accounts deliberately
 * do not, each with the reason (packages/documents README, "Compared with accepted accounts").
 */
const NOT_TAGGED_ON_PURPOSE: Readonly<Record<string, string>> = {
  "CashBankOnHand (instant)": "the micro-entity balance sheet format shows the cash as current assets (core:CurrentAssets)",
  "NumberSharesAllotted (duration)":
    "share classes: the registry's data has no structured share capital; called-up share capital is tagged as core:Equity",
  "DescriptionShareType (duration)": "share classes, as above",
  "ParValueShare (duration)": "share classes, as above",
  "NameProductionSoftware (duration)": "optional identification of the software, in no mandatory list",
  "VersionProductionSoftware (duration)": "optional identification of the software, in no mandatory list",
  "CompanyHasActedAsAnAgentDuringPeriodTruefalse (duration)":
    "the platform does not know whether the company acted as an agent; it makes no such claim",
};

describe("accounts the registry accepted (testdata/accepted-accounts)", () => {
  it("are the copies SOURCES.md lists, byte for byte", () => {
    const sources = readFileSync(new URL("SOURCES.md", CORPUS), "utf8");
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const name of files) {
      const sha256 = createHash("sha256")
        .update(readFileSync(new URL(name, CORPUS)))
        .digest("hex");
      expect(sources, name).toContain(`${sha256}  ${name}`);
    }
  });

  it.each(files)("%s: the project's iXBRL reader reads every fact, context and unit", (name) => {
    const accepted = reading(name);
    expect(accepted.problems).toEqual([]);
    expect(accepted.facts.length).toBeGreaterThan(20);
    expect(accepted.schemaRefs[0]).toMatch(/^https:\/\/xbrl\.frc\.org\.uk\/FRS-102\/20\d\d-01-01\/FRS-102-20\d\d-01-01\.xsd$/);
    const contextIds = new Set(accepted.contexts.map((context) => context.id));
    const unitIds = new Set(accepted.units.map((unit) => unit.id));
    for (const fact of accepted.facts) {
      expect(contextIds.has(fact.contextRef ?? ""), `${fact.name} context`).toBe(true);
      if (fact.kind === "nonFraction") expect(unitIds.has(fact.unitRef ?? ""), `${fact.name} unit`).toBe(true);
      expect(fact.value, fact.name).toBeDefined();
    }
    const endDate = accepted.facts.find((fact) => frcLocalName(fact) === "EndDateForPeriodCoveredByReport");
    expect(endDate?.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("reads values through each transformation registry the corpus uses", () => {
    const value = (name: string, concept: string) => reading(name).facts.find((fact) => frcLocalName(fact) === concept)?.value;
    expect(value("Prod223_4316_16186885_20260331.html", "DateAuthorisationFinancialStatementsForIssue")).toBe("2026-09-18"); // TR3
    expect(value("Prod223_4316_16890562_20260831.html", "StartDateForPeriodCoveredByReport")).toBe("2025-12-04"); // TR4
    expect(value("Prod223_4316_16890562_20260831.html", "Creditors")).toBe("5185"); // TR4
    expect(value("Prod223_4316_11579512_20260919.html", "EntityDormantTruefalse")).toBe("false"); // TR2
  });

  it("the joint filing check: the complete filing passes; two accepted ones report the start date at the start instant, which check 3312 does not take", () => {
    expect(missingMandatoryFacts(reading("Prod223_4316_11579512_20260919.html"))).toEqual([]);
    // The registry accepted these, so it does not apply 3312 as Arelle does; the platform's
    // accounts meet the stricter form (start date at the balance sheet date instant).
    expect(missingMandatoryFacts(reading("Prod223_4316_16186885_20260331.html"))).toEqual(["StartDateForPeriodCoveredByReport"]);
    expect(missingMandatoryFacts(reading("Prod223_4316_16890562_20260831.html"))).toEqual(["StartDateForPeriodCoveredByReport"]);
  });

  it("the platform's dormant accounts tag every fact class the accepted dormant accounts tag, in the same kind of context", () => {
    const dormant = files.filter((name) => isDormant(reading(name)));
    expect(dormant).toEqual(["Prod223_4316_16186885_20260331.html"]);
    const ours = factClasses(readIxbrl(renderDormantAccountsIxbrl(withPriorYearInput())));
    for (const name of dormant) {
      const theirs = [...factClasses(reading(name))];
      const missing = theirs.filter((factClass) => !ours.has(factClass) && !(factClass in NOT_TAGGED_ON_PURPOSE));
      expect(missing, name).toEqual([]);
      // Every exception is one the accepted filing really has (the list holds nothing stale).
      for (const factClass of Object.keys(NOT_TAGGED_ON_PURPOSE)) expect(theirs, factClass).toContain(factClass);
      expect(theirs.filter((factClass) => ours.has(factClass)).length).toBeGreaterThanOrEqual(18);
    }
  });

  it("the platform tags with the FRC namespaces of the same kinds, in a taxonomy year no older than the newest accepted filing's", () => {
    const yearOf = (namespace: string) => Number(/\/(\d{4})-01-01\//.exec(namespace)?.[1]);
    const corpusYears = files.map((name) => Number(/FRS-102-(\d{4})-01-01\.xsd$/.exec(reading(name).schemaRefs[0] ?? "")?.[1]));
    const newest = Math.max(...corpusYears);
    expect(newest).toBe(2025);
    for (const [kind, namespace] of [
      ["fr", NS.core],
      ["cd", NS.bus],
      ["reports", NS.direp],
      ["cd", NS.countries],
    ] as const) {
      expect(namespace).toMatch(new RegExp(`^http://xbrl\\.frc\\.org\\.uk/${kind}/\\d{4}-01-01/(core|business|direp|countries)$`));
      expect(yearOf(namespace)).toBeGreaterThanOrEqual(newest);
    }
    // The FRC 2026 suite, as the newest accepted filings inspected use (SOURCES.md, "Inspected, not copied").
    expect([NS.core, NS.bus, NS.direp, FRC_ENTRY_POINT]).toEqual([
      "http://xbrl.frc.org.uk/fr/2026-01-01/core",
      "http://xbrl.frc.org.uk/cd/2026-01-01/business",
      "http://xbrl.frc.org.uk/reports/2026-01-01/direp",
      "https://xbrl.frc.org.uk/FRS-102/2026-01-01/FRS-102-2026-01-01.xsd",
    ]);
    // The accepted filings' namespaces are of the same kinds.
    for (const name of files) {
      const root = reading(name).document?.documentElement;
      const declared = Array.from(root?.attributes ?? []).map((attribute) => attribute.value);
      expect(
        declared.some((value) => /^http:\/\/xbrl\.frc\.org\.uk\/fr\/\d{4}-01-01\/core$/.test(value)),
        name,
      ).toBe(true);
      expect(
        declared.some((value) => /^http:\/\/xbrl\.frc\.org\.uk\/cd\/\d{4}-01-01\/business$/.test(value)),
        name,
      ).toBe(true);
    }
  });
});
