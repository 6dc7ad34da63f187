import { describe, expect, it } from "vitest";
import type { DormantAccountsInput } from "../ixbrl/dormant-accounts-input.ts";
import { renderDormantAccountsIxbrl } from "../ixbrl/render-dormant-accounts.ts";
import { PdfInputError } from "./pdf-input-error.ts";
import { withPriorYearInput } from "../test-support/dormant-accounts-inputs.ts";
import { readPdf } from "../test-support/read-pdf.ts";
import { renderDormantAccountsPdf } from "./render-dormant-accounts-pdf.ts";
import type { DormantAccountsPdfInput } from "./pdf-inputs.ts";

const GENERATED_AT = "2026-05-02T09:30:00Z";

/** A second-year company whose prior balance sheet showed its 100 pounds of share capital as not yet paid. */
function secondYear(overrides: Partial<DormantAccountsInput> = {}): DormantAccountsInput {
  return withPriorYearInput({
    companyName: "Société Générale & <Ørsted> Zoë Ltd",
    companyNumber: "SC000001",
    jurisdiction: "scotland",
    directorName: "Zoë Ørsted-Smith",
    ...overrides,
  });
}

const pdfInput = (accounts: DormantAccountsInput, sandbox = false): DormantAccountsPdfInput => ({
  ...accounts,
  generatedAt: GENERATED_AT,
  sandbox,
});

describe("renderDormantAccountsPdf", () => {
  it("renders cover, balance sheet with comparatives, statements, approval and notes", async () => {
    const pdf = await readPdf(await renderDormantAccountsPdf(pdfInput(secondYear())));

    expect(pdf.pages).toHaveLength(3);
    const [cover = "", balanceSheet = "", notes = ""] = pdf.pages;
    expect(cover).toContain("Registered number SC000001 Société Générale & <Ørsted> Zoë Ltd");
    expect(cover).toContain("Unaudited financial statements for the year ended 31 March 2026");
    expect(cover).toContain("Director Zoë Ørsted-Smith");
    expect(cover).toContain("Registered in Scotland");

    expect(balanceSheet).toContain("Balance sheet as at 31 March 2026 31 March 2026 £ 31 March 2025 £");
    expect(balanceSheet).toContain("Called up share capital not paid - 100");
    expect(balanceSheet).toContain("Current assets Cash at bank and in hand 100 -");
    expect(balanceSheet).toContain("Creditors: amounts falling due within one year - -");
    expect(balanceSheet).toContain("Net current assets 100 -");
    expect(balanceSheet).toContain("Net assets 100 100");
    expect(balanceSheet).toContain("Capital and reserves Called up share capital 100 100 Profit and loss account - -");
    expect(balanceSheet).toContain("Shareholders' funds 100 100");
    expect(balanceSheet).toContain(
      "For the year ending 31 March 2026 the company was entitled to exemption from audit under section 480 of the " +
        "Companies Act 2006 relating to dormant companies.",
    );
    expect(balanceSheet).toContain("The members have not required the company to obtain an audit in accordance with section 476");
    expect(balanceSheet).toContain("The directors acknowledge their responsibilities for complying with the requirements");
    expect(balanceSheet).toContain("in accordance with the micro-entity provisions");
    expect(balanceSheet).toContain(
      "Approved by the board of directors on 1 May 2026 and signed on its behalf by Zoë Ørsted-Smith, Director.",
    );
    expect(balanceSheet).toContain("Zoë Ørsted-Smith Director Date: 1 May 2026");

    expect(notes).toContain("Notes to the financial statements for the year ended 31 March 2026");
    expect(notes).toContain("Société Générale & <Ørsted> Zoë Ltd is a private company limited by shares, registered in Scotland");
    expect(notes).toContain("The company has been dormant throughout the year");
    expect(notes).toContain("It has not traded since its incorporation.");
    expect(notes).toContain("during the year was 0 (previous period: 0).");
    expect(pdf.pages.map((page) => /Page (\d) of 3/.exec(page)?.[1])).toEqual(["1", "2", "3"]);
    expect(pdf.text).not.toContain("SANDBOX");
  });

  it("shows no prior-year column when the comparatives are not known", async () => {
    const firstYear = secondYear({ priorYear: undefined });
    const pdf = await readPdf(await renderDormantAccountsPdf(pdfInput(firstYear)));

    const balanceSheet = pdf.pages[1] ?? "";
    expect(balanceSheet).toContain(
      "Balance sheet as at 31 March 2026 31 March 2026 £ Current assets Cash at bank and in hand 100 Creditors",
    );
    expect(balanceSheet).toContain(
      "Net assets 100 Capital and reserves Called up share capital 100 Profit and loss account - Shareholders' funds 100 For the year",
    );
    expect(balanceSheet).not.toContain("2025");
    expect(balanceSheet).not.toContain("not paid");
    expect(pdf.pages[2]).not.toContain("previous period");
  });

  it("shows pence when any figure has them, negatives in brackets, and the guarantee company's funds", async () => {
    const accounts = secondYear({
      registryCompanyType: "private-limited-guarant-nsc",
      periodStart: "2025-01-01",
      periodEnd: "2025-06-30",
      approvalDate: "2025-08-01",
      tradingStatus: "no-longer-trading",
      averageEmployees: 1,
      current: { cash: 12_345_650, sharesNotPaid: 50, creditors: 13_000_000, shareCapital: 100, profitLossAccount: -654_400 },
      priorYear: {
        periodStart: "2024-01-01",
        periodEnd: "2024-12-31",
        cash: 100,
        creditors: 0,
        shareCapital: 100,
        profitLossAccount: 0,
        averageEmployees: 2,
      },
    });
    const pdf = await readPdf(await renderDormantAccountsPdf(pdfInput(accounts)));

    const [cover = "", balanceSheet = "", notes = ""] = pdf.pages;
    expect(cover).toContain("for the period ended 30 June 2025");
    expect(balanceSheet).toContain("Called up share capital not paid 0.50 -");
    expect(balanceSheet).toContain("Cash at bank and in hand 123,456.50 1.00");
    expect(balanceSheet).toContain("Creditors: amounts falling due within one year (130,000.00) -");
    expect(balanceSheet).toContain("Net current assets / (liabilities) (6,543.50) 1.00");
    expect(balanceSheet).toContain("Net assets / (liabilities) (6,543.00) 1.00");
    expect(balanceSheet).toContain("Profit and loss account (6,544.00) -");
    expect(balanceSheet).toContain("Members' funds (6,543.00) 1.00");
    expect(balanceSheet).toContain("For the period ending 30 June 2025 the company was entitled to exemption from audit under section 480");
    expect(notes).toContain("a private company limited by guarantee");
    expect(notes).toContain("It traded in the past but did not trade during the period.");
    expect(notes).toContain("during the period was 1 (previous period: 2).");
  });

  it("states the same statements as the iXBRL accounts rendered from the same input", async () => {
    const accounts = secondYear();
    const ixbrl = renderDormantAccountsIxbrl(accounts);
    const pdf = await readPdf(await renderDormantAccountsPdf(pdfInput(accounts)));

    const statements = [...ixbrl.matchAll(/<p class="statement">(?:<ix:nonNumeric[^>]*>)?([^<]+)</g)].map((match) => match[1] ?? "");
    expect(statements).toHaveLength(4);
    for (const statement of statements) expect(pdf.pages[1]).toContain(statement);
  });

  it("keeps the contents true when names of the longest allowed length push the notes on", async () => {
    const longest = (words: string) => words.repeat(10).slice(0, 160);
    const accounts = secondYear({
      companyName: longest("Ŵ Société Générale Øresund Holdings "),
      directorName: longest("Wilhelmina Ŵyn Ørsted-Smith "),
      directorPosition: "Director and company secretary",
    });
    const pdf = await readPdf(await renderDormantAccountsPdf(pdfInput(accounts, true)));

    const startsOn = (title: string) => pdf.pages.findIndex((page, index) => index > 0 && page.includes(title)) + 1;
    const balanceSheetPage = startsOn("Balance sheet as at 31 March 2026");
    const notesPage = startsOn("Notes to the financial statements for the year");
    expect(balanceSheetPage).toBe(2);
    expect(notesPage).toBeGreaterThan(balanceSheetPage);
    expect(pdf.pages[0]).toContain(`Contents Balance sheet page ${balanceSheetPage} Notes to the financial statements page ${notesPage}`);
    expect(pdf.text).toContain(accounts.directorName.trim());
    expect(pdf.pages.at(-1)).toContain(`Page ${pdf.pages.length} of ${pdf.pages.length}`);
  });

  it("marks every page of sandbox accounts SANDBOX — NOT FILED", async () => {
    const pdf = await readPdf(await renderDormantAccountsPdf(pdfInput(secondYear(), true)));

    expect(pdf.pages).toHaveLength(3);
    for (const page of pdf.pages) {
      expect(page).toContain("SANDBOX — NOT FILED");
      expect(page).toContain("Sandbox mode: not delivered to Companies House.");
    }
  });

  it("carries the document information, and the same input gives the same bytes", async () => {
    const bytes = await renderDormantAccountsPdf(pdfInput(secondYear()));
    const { info } = await readPdf(bytes);

    expect(info.Title).toBe("Société Générale & <Ørsted> Zoë Ltd: unaudited financial statements for the year ended 31 March 2026");
    expect(info.Author).toBe("Dormant filing platform");
    expect(info.Subject).toBe(
      "Dormant company accounts (FRS 105 micro-entity, exempt from audit under section 480 of the Companies Act 2006)",
    );
    expect(info.CreationDate).toBe("D:20260502093000Z");
    expect((await renderDormantAccountsPdf(pdfInput(secondYear()))).equals(bytes)).toBe(true);
  });

  it("rejects accounts that do not balance or lack a generation time", async () => {
    const unbalanced = secondYear({ current: { cash: 10_000, creditors: 0, shareCapital: 100, profitLossAccount: 0 } });

    const error = await renderDormantAccountsPdf({ ...unbalanced, generatedAt: "2 May 2026" }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PdfInputError);
    const problems = (error as PdfInputError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^current does not balance/);
    expect(problems[1]).toBe("generatedAt must be an ISO 8601 date-time with Z or a UTC offset");
  });
});
