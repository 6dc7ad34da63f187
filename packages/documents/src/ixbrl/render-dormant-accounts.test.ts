import { DOMParser } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { checkIxbrlConsistency } from "./check-ixbrl-consistency.ts";
import { firstYearInput, withPriorYearInput } from "../test-support/dormant-accounts-inputs.ts";
import { contextOf, factsNamed, singleFactValue } from "../test-support/ixbrl-facts.ts";
import { DormantAccountsInputError } from "./dormant-accounts-input.ts";
import { readIxbrl } from "./read-ixbrl.ts";
import { renderDormantAccountsIxbrl } from "./render-dormant-accounts.ts";
import { FRC_ENTRY_POINT, NS, REGISTRY_IDENTIFIER_SCHEME } from "./taxonomy.ts";

/** Parses strictly: any warning or error from the XML parser fails the test. */
function parseStrictly(xml: string) {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, "application/xml");
}

function render(input = firstYearInput()) {
  const xml = renderDormantAccountsIxbrl(input);
  parseStrictly(xml);
  const reading = readIxbrl(xml);
  expect(reading.problems).toEqual([]);
  return { xml, reading };
}

/** The text of the visible pages (not the hidden header), with runs of whitespace collapsed. */
function bodyText(xml: string): string {
  const pages = Array.from(parseStrictly(xml).getElementsByTagNameNS(NS.xhtml, "div")).filter((div) =>
    (div.getAttribute("class") ?? "").split(" ").includes("page"),
  );
  expect(pages).toHaveLength(3);
  return pages
    .map((page) => page.textContent ?? "")
    .join(" ")
    .replace(/\s+/g, " ");
}

const DIRECTOR1 = { "bus:EntityOfficersDimension": "bus:Director1" };
const WITHIN_ONE_YEAR = { "core:MaturitiesOrExpirationPeriodsDimension": "core:WithinOneYear" };
const SHARE_CAPITAL = { "core:EquityClassesDimension": "core:ShareCapital" };
const RETAINED_EARNINGS = { "core:EquityClassesDimension": "core:RetainedEarningsAccumulatedLosses" };

describe("renderDormantAccountsIxbrl", () => {
  it("produces a well-formed XHTML Inline XBRL document that passes the consistency check", () => {
    const { xml, reading } = render(withPriorYearInput());
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"')).toBe(true);
    expect(checkIxbrlConsistency(xml).problems).toEqual([]);
    expect(reading.schemaRefs).toEqual([FRC_ENTRY_POINT]);
    const root = parseStrictly(xml).documentElement;
    for (const prefix of ["ix", "ixt", "xbrli", "xbrldi", "link", "xlink", "iso4217", "core", "bus", "direp"] as const) {
      expect(root?.getAttribute(`xmlns:${prefix}`)).toBe(NS[prefix]);
    }
    expect(xml).not.toMatch(/<script|<!DOCTYPE|<!ENTITY/i);
  });

  it("identifies the company in every context with the registry scheme", () => {
    const { reading } = render(withPriorYearInput({ companyNumber: "SC000001", jurisdiction: "scotland" }));
    expect(reading.contexts.length).toBeGreaterThan(0);
    for (const context of reading.contexts) {
      expect(context.scheme).toBe(REGISTRY_IDENTIFIER_SCHEME);
      expect(context.identifier).toBe("SC000001");
    }
    expect(singleFactValue(reading, "bus:UKCompaniesHouseRegisteredNumber")).toBe("SC000001");
  });

  it("reports every fact a dormant micro-entity filing needs, with ISO dates", () => {
    const { reading } = render();
    expect(singleFactValue(reading, "bus:EntityCurrentLegalOrRegisteredName")).toBe("Dormant Example Limited");
    expect(singleFactValue(reading, "bus:StartDateForPeriodCoveredByReport")).toBe("2025-04-01");
    expect(singleFactValue(reading, "bus:EndDateForPeriodCoveredByReport")).toBe("2026-03-31");
    expect(singleFactValue(reading, "bus:BalanceSheetDate")).toBe("2026-03-31");
    expect(singleFactValue(reading, "core:DateAuthorisationFinancialStatementsForIssue")).toBe("2026-05-01");
    expect(singleFactValue(reading, "bus:EntityDormantTruefalse")).toBe("true");
    expect(singleFactValue(reading, "bus:NameEntityOfficer", DIRECTOR1)).toBe("Ada Lovelace");
    expect(singleFactValue(reading, "core:DirectorSigningFinancialStatements", DIRECTOR1)).toBe("");
    expect(singleFactValue(reading, "core:AverageNumberEmployeesDuringPeriod")).toBe("0");

    const dimensional: Array<[string, Record<string, string>]> = [
      ["bus:EntityTradingStatus", { "bus:EntityTradingStatusDimension": "bus:EntityHasNeverTraded" }],
      ["bus:AccountingStandardsApplied", { "bus:AccountingStandardsDimension": "bus:Micro-entities" }],
      ["bus:AccountsStatusAuditedOrUnaudited", { "bus:AccountsStatusDimension": "bus:AuditExempt-NoAccountantsReport" }],
      ["bus:AccountsType", { "bus:AccountsTypeDimension": "bus:FullAccounts" }],
      ["bus:LegalFormEntity", { "bus:LegalFormEntityDimension": "bus:PrivateLimitedCompanyLtd" }],
      ["bus:CountryFormationOrIncorporation", { "countries:CountriesRegionsDimension": "countries:EnglandWales" }],
    ];
    for (const [name, members] of dimensional) expect(singleFactValue(reading, name, members), name).toBe("");

    const statements = {
      "direp:StatementThatCompanyEntitledToExemptionFromAuditUnderSection480CompaniesAct2006RelatingToDormantCompanies":
        /For the year ending 31 March 2026 .*exemption from audit under section 480 of the Companies Act 2006 relating to dormant companies/,
      "direp:StatementThatMembersHaveNotRequiredCompanyToObtainAnAudit":
        /members have not required the company to obtain an audit .*section 476/,
      "direp:StatementThatDirectorsAcknowledgeTheirResponsibilitiesUnderCompaniesAct":
        /directors acknowledge their responsibilities .*accounting records and the preparation of accounts/,
      "direp:StatementThatAccountsHaveBeenPreparedInAccordanceWithProvisionsSmallCompaniesRegime":
        /prepared in accordance with .*micro-entity provisions/,
    };
    for (const [name, wording] of Object.entries(statements)) expect(singleFactValue(reading, name)).toMatch(wording);

    for (const fact of reading.facts.filter((candidate) => /Date/.test(candidate.name))) {
      expect(fact.value, fact.name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(contextOf(reading, fact).period).toEqual({ instant: "2026-03-31" });
    }
    for (const context of reading.contexts) {
      for (const date of Object.values(context.period ?? {})) expect(String(date)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("tags the balance sheet so that it balances, in pounds at the balance sheet date", () => {
    const { reading } = render(
      firstYearInput({
        current: { cash: 25_000, sharesNotPaid: 10_000, creditors: 5_000, shareCapital: 10_000, profitLossAccount: 20_000 },
      }),
    );
    const at = "2026-03-31";
    const pounds = (name: string, members: Record<string, string> = {}) => Number(singleFactValue(reading, name, members, at));
    expect(pounds("core:CalledUpShareCapitalNotPaidNotExpressedAsCurrentAsset")).toBe(100);
    expect(pounds("core:CurrentAssets")).toBe(250);
    expect(pounds("core:Creditors", WITHIN_ONE_YEAR)).toBe(50);
    expect(pounds("core:NetCurrentAssetsLiabilities")).toBe(pounds("core:CurrentAssets") - pounds("core:Creditors", WITHIN_ONE_YEAR));
    expect(pounds("core:TotalAssetsLessCurrentLiabilities")).toBe(
      pounds("core:CalledUpShareCapitalNotPaidNotExpressedAsCurrentAsset") + pounds("core:NetCurrentAssetsLiabilities"),
    );
    expect(pounds("core:NetAssetsLiabilities")).toBe(300);
    expect(pounds("core:Equity", SHARE_CAPITAL)).toBe(100);
    expect(pounds("core:Equity", RETAINED_EARNINGS)).toBe(200);
    expect(pounds("core:Equity")).toBe(pounds("core:Equity", SHARE_CAPITAL) + pounds("core:Equity", RETAINED_EARNINGS));
    expect(pounds("core:Equity")).toBe(pounds("core:NetAssetsLiabilities"));
    for (const fact of reading.facts.filter((candidate) => candidate.unitRef === "GBP")) {
      expect(fact.decimals).toBe("0");
      expect(contextOf(reading, fact).period).toEqual({ instant: at });
    }
  });

  it("has no prior-year column or contexts when no comparatives are given", () => {
    const { xml, reading } = render(firstYearInput());
    expect(reading.contexts.map((context) => context.id).filter((id) => id.startsWith("pri-"))).toEqual([]);
    for (const context of reading.contexts) {
      const period = context.period;
      expect(period && ("instant" in period ? period.instant : "endDate" in period ? period.endDate : "")).toBe("2026-03-31");
    }
    const header = parseStrictly(xml).getElementsByTagNameNS(NS.xhtml, "thead")[0];
    expect(header?.getElementsByTagNameNS(NS.xhtml, "th").length).toBe(2);
    expect(factsNamed(reading, "core:CalledUpShareCapitalNotPaidNotExpressedAsCurrentAsset")).toEqual([]);
  });

  it("adds the prior-year column, contexts and comparatives when they are known", () => {
    const { xml, reading } = render(withPriorYearInput());
    const ids = reading.contexts.map((context) => context.id);
    expect(ids).toEqual(expect.arrayContaining(["pri-d", "pri-i", "pri-i-creditors-within-one-year", "pri-i-share-capital"]));
    expect(reading.contexts.find((context) => context.id === "pri-d")?.period).toEqual({ startDate: "2024-04-01", endDate: "2025-03-31" });
    const prior = "2025-03-31";
    expect(singleFactValue(reading, "core:CalledUpShareCapitalNotPaidNotExpressedAsCurrentAsset", {}, prior)).toBe("100");
    expect(singleFactValue(reading, "core:CalledUpShareCapitalNotPaidNotExpressedAsCurrentAsset", {}, "2026-03-31")).toBe("0");
    expect(singleFactValue(reading, "core:CurrentAssets", {}, prior)).toBe("0");
    expect(singleFactValue(reading, "core:NetAssetsLiabilities", {}, prior)).toBe("100");
    expect(singleFactValue(reading, "core:Equity", {}, prior)).toBe("100");
    expect(singleFactValue(reading, "core:AverageNumberEmployeesDuringPeriod", {}, prior)).toBe("0");
    const header = parseStrictly(xml).getElementsByTagNameNS(NS.xhtml, "thead")[0];
    expect((header?.textContent ?? "").replace(/\s+/g, " ")).toMatch(/31 March 2026.*31 March 2025/);
  });

  it("escapes names with markup characters and non-ASCII text so that they round-trip", () => {
    const companyName = `O'Brien & Sons <Trading> "Zo\u00eb \u00dcnal" \u2013 \u00a3 \u{1d518} Limited`;
    const directorName = "Se\u00e1n \u00d3 Br\u00edain & <Co>";
    const { xml, reading } = render(firstYearInput({ companyName, directorName }));
    expect([...xml].every((char) => char.charCodeAt(0) < 0x80)).toBe(true);
    expect(singleFactValue(reading, "bus:EntityCurrentLegalOrRegisteredName")).toBe(companyName);
    expect(singleFactValue(reading, "bus:NameEntityOfficer", DIRECTOR1)).toBe(directorName);
    const title = parseStrictly(xml).getElementsByTagNameNS(NS.xhtml, "title")[0];
    expect(title?.textContent).toBe(`${companyName} - Dormant accounts for the year ended 31 March 2026`);
    expect(bodyText(xml)).toContain(`${companyName} is a private company limited by shares, registered in England and Wales`);
  });

  it("shows zero as a dash tagged with fixed-zero", () => {
    const { reading } = render(
      firstYearInput({ current: { cash: 0, sharesNotPaid: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 0 } }),
    );
    const zeros = [
      ...factsNamed(reading, "core:CurrentAssets"),
      ...factsNamed(reading, "core:Creditors", WITHIN_ONE_YEAR),
      ...factsNamed(reading, "core:NetCurrentAssetsLiabilities"),
      ...factsNamed(reading, "core:Equity", RETAINED_EARNINGS),
    ];
    expect(zeros).toHaveLength(4);
    for (const fact of zeros) {
      expect(fact.displayed).toBe("-");
      expect(fact.format).toBe("ixt:fixed-zero");
      expect(fact.value).toBe("0");
      expect(fact.sign).toBeUndefined();
    }
  });

  it('shows negative amounts in brackets and tags them sign="-"', () => {
    const { xml, reading } = render(
      firstYearInput({ current: { cash: 0, sharesNotPaid: 10_000, creditors: 15_000, shareCapital: 10_000, profitLossAccount: -15_000 } }),
    );
    const [losses] = factsNamed(reading, "core:Equity", RETAINED_EARNINGS);
    expect(losses?.sign).toBe("-");
    expect(losses?.displayed).toBe("150");
    expect(losses?.value).toBe("-150");
    expect(singleFactValue(reading, "core:NetAssetsLiabilities")).toBe("-50");
    expect(singleFactValue(reading, "core:NetCurrentAssetsLiabilities")).toBe("-150");
    const text = bodyText(xml);
    expect(text).toContain("Net current liabilities (150)");
    expect(text).toContain("Net liabilities (50)");
    expect(text).toContain("Profit and loss account (150)");
    expect(text).not.toContain("true");
  });

  it("switches the whole document to pounds and pence when an amount has pence", () => {
    const { xml, reading } = render(
      firstYearInput({ current: { cash: 123_456_78, creditors: 50, shareCapital: 10_000, profitLossAccount: 123_356_28 } }),
    );
    expect(checkIxbrlConsistency(xml).problems).toEqual([]);
    const money = reading.facts.filter((fact) => fact.unitRef === "GBP");
    expect(new Set(money.map((fact) => fact.decimals))).toEqual(new Set(["2"]));
    const [cash] = factsNamed(reading, "core:CurrentAssets");
    expect(cash?.displayed).toBe("123,456.78");
    expect(cash?.value).toBe("123456.78");
    const [creditors] = factsNamed(reading, "core:Creditors", WITHIN_ONE_YEAR);
    expect(creditors?.displayed).toBe("0.50");
    expect(creditors?.value).toBe("0.5");
  });

  it("states the approval and signature in words a person reads", () => {
    const { xml } = render(firstYearInput({ directorPosition: "Company Director" }));
    const text = bodyText(xml);
    expect(text).toContain("Approved by the board on 1 May 2026 and signed on its behalf by Ada Lovelace, Company Director.");
    expect(text).toContain("Balance sheet as at 31 March 2026");
    expect(text).toContain("for the period from 1 April 2025 to 31 March 2026");
    expect(text).toContain("Registered number: 00000001");
  });

  it("reflects the legal form, jurisdiction and trading history it is given", () => {
    const guarantee = render(
      firstYearInput({
        registryCompanyType: "private-limited-guarant-nsc",
        jurisdiction: "northern-ireland",
        companyNumber: "NI000001",
        tradingStatus: "no-longer-trading",
        current: { cash: 0, creditors: 0, shareCapital: 0, profitLossAccount: 0 },
      }),
    );
    expect(
      singleFactValue(guarantee.reading, "bus:LegalFormEntity", { "bus:LegalFormEntityDimension": "bus:CompanyLimitedByGuarantee" }),
    ).toBe("");
    expect(
      singleFactValue(guarantee.reading, "bus:CountryFormationOrIncorporation", {
        "countries:CountriesRegionsDimension": "countries:NorthernIreland",
      }),
    ).toBe("");
    expect(
      singleFactValue(guarantee.reading, "bus:EntityTradingStatus", {
        "bus:EntityTradingStatusDimension": "bus:EntityNoLongerTradingButTradedInPast",
      }),
    ).toBe("");
    expect(bodyText(guarantee.xml)).toContain("Members' funds");
    expect(checkIxbrlConsistency(guarantee.xml).problems).toEqual([]);

    const unknownJurisdiction = render(firstYearInput({ jurisdiction: undefined }));
    expect(factsNamed(unknownJurisdiction.reading, "bus:CountryFormationOrIncorporation")).toEqual([]);
    expect(unknownJurisdiction.xml).not.toContain("countries:CountriesRegionsDimension");
    expect(checkIxbrlConsistency(unknownJurisdiction.xml).problems).toEqual([]);
  });

  it("speaks of a period rather than a year when the period is not twelve months", () => {
    const { reading } = render(firstYearInput({ periodStart: "2025-06-15", approvalDate: "2026-04-02" }));
    expect(
      singleFactValue(
        reading,
        "direp:StatementThatCompanyEntitledToExemptionFromAuditUnderSection480CompaniesAct2006RelatingToDormantCompanies",
      ),
    ).toMatch(/^For the period ending 31 March 2026/);
  });

  it("refuses input that does not balance or cannot be filed, naming every problem", () => {
    const attempt = (input: Parameters<typeof renderDormantAccountsIxbrl>[0]) => {
      try {
        renderDormantAccountsIxbrl(input);
      } catch (error) {
        expect(error).toBeInstanceOf(DormantAccountsInputError);
        return (error as DormantAccountsInputError).problems;
      }
      throw new Error("expected the input to be refused");
    };
    expect(attempt(firstYearInput({ current: { cash: 10_000, creditors: 0, shareCapital: 10_000, profitLossAccount: 1 } }))).toEqual([
      expect.stringMatching(/^current does not balance/),
    ]);
    expect(attempt(firstYearInput({ companyNumber: "123", approvalDate: "2026-03-31" }))).toEqual([
      "companyNumber must be 8 characters A-Z or 0-9",
      "approvalDate must be after the balance sheet date",
    ]);
    expect(attempt(withPriorYearInput({ periodStart: "2025-04-02" }))).toContain("priorYear.periodEnd must be the day before periodStart");
    expect(attempt(firstYearInput({ registryCompanyType: "plc" as never }))).toEqual([
      expect.stringContaining('registryCompanyType "plc" is not a company type'),
    ]);
    expect(attempt(firstYearInput({ companyName: "Bad\u0000Name", directorName: " " }))).toEqual([
      "companyName contains a control or non-character code point",
      "directorName must be a non-empty string",
    ]);
    expect(attempt(firstYearInput({ periodEnd: "2026-02-30", balanceSheetDate: "2026-03-31" }))).toEqual([
      "periodEnd must be a YYYY-MM-DD calendar date",
      "balanceSheetDate must equal periodEnd",
    ]);
    expect(attempt(firstYearInput({ current: { cash: 10.5, creditors: -1, shareCapital: 10_000, profitLossAccount: 0 } }))).toEqual([
      "current.cash must be an integer number of pence",
      "current.creditors cannot be negative",
    ]);
  });
});
