// Item 7 of issue 11: every CT600 the platform can produce passes HMRC's compiled business rules
// (CT-2014-v1-96.xslt) with zero failures, and the CT schema, judged by the authority's own
// artefacts. The returns are built as the platform builds them: the filing service derives the
// facts from the registry's data (deriveCompanyFacts, one tax.submit_part per CT600 period) and
// the tax submitter turns each part into a message with buildCt600SubmitMessage.
import { deriveCompanyFacts, type CompanyProfile, type FilingHistory, type OfficerList } from "@dormant/company-data";
import { describe, expect, it } from "vitest";
import { checkCt600BusinessRules } from "../business-rules/check-ct600-business-rules.ts";
import { validateCt600Body } from "../xsd/validate-ct600.ts";
import type { Ct600NilReturnInput } from "./nil-return-input.ts";
import { buildCt600SubmitMessage } from "./submit-message.ts";

interface RegistryRecord {
  profile: CompanyProfile;
  officers: OfficerList;
  filingHistory: FilingHistory;
}

const officers: OfficerList = {
  items: [
    { name: "LOVELACE, Ada", officer_role: "director", appointed_on: "2019-05-01" },
    { name: "BABBAGE, Charles", officer_role: "secretary", appointed_on: "2019-05-01" },
  ],
};

function accountsFiled(...madeUpDates: string[]): FilingHistory {
  return {
    items: madeUpDates.map((date) => ({
      category: "accounts",
      type: "AA",
      date: `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`,
      description: "accounts-with-accounts-type-dormant",
      description_values: { made_up_date: date },
    })),
  };
}

function company(number: string, jurisdiction: string, created: string, history: FilingHistory): RegistryRecord {
  return {
    profile: {
      company_name: `DORMANT ${number} LIMITED`,
      company_number: number,
      company_status: "active",
      type: "ltd",
      date_of_creation: created,
      jurisdiction,
    },
    officers,
    filingHistory: history,
  };
}

/** One filing as the platform plans it: which company, which period end, which declarant. */
interface Case {
  name: string;
  record: RegistryRecord;
  periodEnd: string;
  declarant?: { name?: string; status?: "Director" | "Company Secretary" | "Agent" };
  /** Expected number of returns (2 when the period is split). */
  parts: 1 | 2;
  firstYear: boolean;
}

const CASES: Case[] = [
  {
    name: "England & Wales, 12 months, Director",
    record: company("01234567", "england-wales", "2019-05-01", accountsFiled("2024-03-31")),
    periodEnd: "2025-03-31",
    parts: 1,
    firstYear: false,
  },
  {
    name: "England & Wales, Company Secretary",
    record: company("01234568", "england-wales", "2019-05-01", accountsFiled("2024-03-31")),
    periodEnd: "2025-03-31",
    declarant: { name: "Charles Babbage", status: "Company Secretary" },
    parts: 1,
    firstYear: false,
  },
  {
    name: "England & Wales, Agent",
    record: company("01234569", "england-wales", "2019-05-01", accountsFiled("2024-03-31")),
    periodEnd: "2025-03-31",
    declarant: { name: "Formation Agents Ltd", status: "Agent" },
    parts: 1,
    firstYear: false,
  },
  {
    name: "Scotland, first year shorter than 12 months",
    record: company("SC654321", "scotland", "2024-06-10", accountsFiled()),
    periodEnd: "2025-05-31",
    parts: 1,
    firstYear: true,
  },
  {
    name: "Scotland, first year longer than 12 months (split)",
    record: company("SC654322", "scotland", "2024-06-10", accountsFiled()),
    periodEnd: "2025-06-30",
    parts: 2,
    firstYear: true,
  },
  {
    name: "Northern Ireland, 18-month period (split)",
    record: company("NI612345", "northern-ireland", "2019-05-01", accountsFiled("2023-12-31")),
    periodEnd: "2025-06-30",
    parts: 2,
    firstYear: false,
  },
  {
    name: "Northern Ireland, 12 months, Agent",
    record: company("NI612346", "northern-ireland", "2019-05-01", accountsFiled("2024-06-30")),
    periodEnd: "2025-06-30",
    declarant: { name: "Formation Agents Ltd", status: "Agent" },
    parts: 1,
    firstYear: false,
  },
  {
    name: "a leap day: 29 Feb start, split at 28 Feb",
    record: company("01234570", "england-wales", "2019-05-01", accountsFiled("2024-02-28")),
    periodEnd: "2025-07-31",
    parts: 2,
    firstYear: false,
  },
];

/** The tax submitter's configuration and the credentials a filing carries. */
const TAX_CONFIG = { vendorId: "1234", productName: "Dormant Filing Platform", productVersion: "1.0.0", companyType: 0 };

/** The CT600 inputs of every part of a case, as the filing service and the tax submitter make them. */
function partInputs(testCase: Case, gatewayTest: boolean): Ct600NilReturnInput[] {
  const result = deriveCompanyFacts({
    filingType: "ct600",
    ...testCase.record,
    periodEnd: testCase.periodEnd,
    today: "2026-01-15",
    overrides: testCase.declarant ? { declarant: testCase.declarant } : {},
  });
  if (!result.ok) throw new Error(`the platform refuses ${testCase.name}: ${JSON.stringify(result.problems)}`);
  const { facts } = result;
  expect(facts.isFirstYear).toBe(testCase.firstYear);
  expect(facts.ct600Periods).toHaveLength(testCase.parts);
  return facts.ct600Periods.map((period) => ({
    utr: "8596148860",
    companyName: facts.companyName,
    companyNumber: facts.companyNumber,
    periodStart: period.start,
    periodEnd: period.end,
    declarantName: facts.declarant.name,
    declarantStatus: facts.declarant.status,
    ...TAX_CONFIG,
    gatewayTest,
    senderId: "GGUSER01",
    password: "s3cret-P@ss&<word>",
  }));
}

/** A small dormant accounts document in iXBRL (the rules see it only base64-encoded). */
const ACCOUNTS_IXBRL =
  '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><head><title>Accounts</title></head>' +
  '<body><div style="display:none"><ix:header/></div><p>Dormant accounts — Zoë &amp; Co</p></body></html>';

async function expectAccepted(xml: string): Promise<void> {
  const [rules, schema] = await Promise.all([checkCt600BusinessRules(xml), validateCt600Body(xml)]);
  expect(rules).toEqual([]);
  expect(schema).toEqual({ valid: true, errors: [] });
}

// Each rules check is an xsltproc run (~0.1-0.2 s of CPU each, 34 of them): the tests run
// concurrently so that runXsltproc keeps one run going per core instead of one at a time.
describe.concurrent("every CT600 the platform produces passes HMRC's business rules and the CT schema", () => {
  for (const testCase of CASES) {
    for (const gatewayTest of [true, false]) {
      it(`${testCase.name}, GatewayTest ${gatewayTest ? 1 : 0}: each part, with the dormant reason and with the accounts attached`, async () => {
        const inputs = partInputs(testCase, gatewayTest);
        for (const input of inputs) {
          const withReason = buildCt600SubmitMessage(input);
          expect(withReason.xml).toContain(`<GatewayTest>${gatewayTest ? 1 : 0}</GatewayTest>`);
          expect(withReason.xml).toContain("<NoAccountsReason>Company dormant</NoAccountsReason>");
          await expectAccepted(withReason.xml);

          const period = inputs.length === 1 ? "this-period" : "different-period";
          const attached = buildCt600SubmitMessage({ ...input, accounts: { ixbrl: ACCOUNTS_IXBRL, period } });
          expect(attached.xml).not.toContain("NoAccountsReason");
          expect(attached.xml).toContain(
            period === "this-period" ? "<ThisPeriodAccounts>yes</ThisPeriodAccounts>" : "<DifferentPeriod>yes</DifferentPeriod>",
          );
          await expectAccepted(attached.xml);
        }
        if (inputs.length === 2) {
          // The parts are contiguous: the second starts the day after the first ends.
          const [first, second] = inputs;
          expect(new Date(`${first?.periodEnd}T00:00:00Z`).getTime() + 86_400_000).toBe(
            new Date(`${second?.periodStart}T00:00:00Z`).getTime(),
          );
        }
      });
    }
  }

  it("attaches the accounts base64-encoded in EncodedInlineXBRLDocument, the IRmark covering them", () => {
    const [input] = partInputs(CASES[0] as Case, true);
    const message = buildCt600SubmitMessage({ ...(input as Ct600NilReturnInput), accounts: { ixbrl: ACCOUNTS_IXBRL } });
    const encoded = /<EncodedInlineXBRLDocument Filename="accounts.xhtml">([^<]+)<\/EncodedInlineXBRLDocument>/.exec(message.xml)?.[1];
    expect(Buffer.from(encoded ?? "", "base64").toString("utf8")).toBe(ACCOUNTS_IXBRL);
    const reason = buildCt600SubmitMessage(input as Ct600NilReturnInput);
    expect(message.irmark.base64).not.toBe(reason.irmark.base64);
  });

  it("the rules catch a return built wrong: accounts attached and the dormant reason given too (9349)", async () => {
    const [input] = partInputs(CASES[0] as Case, true);
    const attached = buildCt600SubmitMessage({ ...(input as Ct600NilReturnInput), accounts: { ixbrl: ACCOUNTS_IXBRL } }).xml;
    const both = attached.replace("<ThisPeriodAccounts>yes</ThisPeriodAccounts>", "<NoAccountsReason>Company dormant</NoAccountsReason>");
    expect((await checkCt600BusinessRules(both)).map((failure) => failure.number)).toEqual([9349]);
    const neither = attached.replace("<ThisPeriodAccounts>yes</ThisPeriodAccounts>", "");
    expect((await checkCt600BusinessRules(neither)).map((failure) => failure.number)).toEqual([9114]);
  });
});
