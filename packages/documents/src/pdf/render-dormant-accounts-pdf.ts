import { balanceSheetLines, type BalanceSheetLines } from "../ixbrl/balance-sheet.ts";
import { addDays, addMonths } from "@dormant/company-data";
import { longDate } from "../ixbrl/long-date.ts";
import { findDormantAccountsInputProblems, type BalanceSheetFigures } from "../ixbrl/dormant-accounts-input.ts";
import { JURISDICTIONS, LEGAL_FORMS } from "../ixbrl/legal-form.ts";
import { decimalsFor, formatPounds, type MoneyDecimals } from "../ixbrl/money.ts";
import { dormantAccountsStatements } from "../ixbrl/statements.ts";
import { figuresTable, type FigureRow } from "./figures-table.ts";
import { FONT } from "./fonts.ts";
import { checkDocumentOptions } from "./input-checks.ts";
import { ensureSpace, fieldTable, gap, heading, paragraph, type Field } from "./layout.ts";
import { openFramedDocument } from "./page-frame.ts";
import { PdfInputError } from "./pdf-input-error.ts";
import { COLOUR, PAGE, SIZE } from "./style.ts";
import type { DormantAccountsPdfInput } from "./pdf-inputs.ts";

type Doc = PDFKit.PDFDocument;

/** Room for the approval sentence (up to three lines) and the signature block below it. */
const APPROVAL_AND_SIGNATURE_HEIGHT = 150;

interface Column {
  readonly balanceSheetDate: string;
  readonly figures: BalanceSheetFigures;
  readonly lines: BalanceSheetLines;
}

/** "year" for a period of exactly twelve months, otherwise "period" (as in the iXBRL document). */
function periodNoun(start: string, end: string): string {
  return addDays(addMonths(start, 12), -1) === end ? "year" : "period";
}

/** Pounds for a balance sheet cell: nil as a dash, negative in brackets. */
function cell(pence: number, decimals: MoneyDecimals): string {
  if (pence === 0) return "-";
  const pounds = formatPounds(pence, decimals);
  return pence < 0 ? `(${pounds})` : pounds;
}

/** "Net current assets", "Net current liabilities", or both when the columns differ in sign. */
function signedLabel(positive: string, negative: string, values: readonly number[]): string {
  if (values.every((value) => value >= 0)) return positive;
  if (values.every((value) => value <= 0)) return negative;
  return `${positive} / (${negative.split(" ").at(-1) ?? ""})`;
}

function balanceSheetRows(columns: readonly Column[], decimals: MoneyDecimals, fundsLabel: string): FigureRow[] {
  const values = (pick: (lines: BalanceSheetLines) => number) => columns.map((column) => pick(column.lines));
  const amounts = (pick: (lines: BalanceSheetLines) => number) => values(pick).map((pence) => cell(pence, decimals));
  const rows: FigureRow[] = [];
  if (columns.some((column) => column.figures.sharesNotPaid !== undefined)) {
    rows.push({ label: "Called up share capital not paid", amounts: amounts((l) => l.sharesNotPaid), style: "plain" });
  }
  rows.push(
    { label: "Current assets", amounts: [], style: "heading" },
    { label: "Cash at bank and in hand", amounts: amounts((l) => l.currentAssets), style: "plain", indent: true },
    { label: "Creditors: amounts falling due within one year", amounts: amounts((l) => -l.creditorsWithinOneYear), style: "plain" },
    {
      label: signedLabel(
        "Net current assets",
        "Net current liabilities",
        values((l) => l.netCurrentAssets),
      ),
      amounts: amounts((l) => l.netCurrentAssets),
      style: "subtotal",
    },
    { label: "Total assets less current liabilities", amounts: amounts((l) => l.totalAssetsLessCurrentLiabilities), style: "subtotal" },
    {
      label: signedLabel(
        "Net assets",
        "Net liabilities",
        values((l) => l.netAssets),
      ),
      amounts: amounts((l) => l.netAssets),
      style: "total",
    },
    { label: "Capital and reserves", amounts: [], style: "heading" },
    { label: "Called up share capital", amounts: amounts((l) => l.shareCapital), style: "plain", indent: true },
    { label: "Profit and loss account", amounts: amounts((l) => l.profitLossAccount), style: "plain", indent: true },
    { label: fundsLabel, amounts: amounts((l) => l.equity), style: "total" },
  );
  return rows;
}

function coverPage(doc: Doc, input: DormantAccountsPdfInput, noun: string): void {
  const centred = { align: "center" } as const;
  doc.y = 190;
  paragraph(doc, `Registered number ${input.companyNumber}`, { ...centred, colour: COLOUR.muted, size: 10.5, after: 14 });
  paragraph(doc, input.companyName, { ...centred, font: FONT.bold, size: 22, colour: COLOUR.accent, after: 16 });
  const ruleY = doc.y;
  doc
    .moveTo(PAGE.width / 2 - 40, ruleY)
    .lineTo(PAGE.width / 2 + 40, ruleY)
    .lineWidth(1)
    .strokeColor(COLOUR.accent)
    .stroke();
  doc.y = ruleY + 18;
  paragraph(doc, "Unaudited financial statements", { ...centred, size: 15, after: 4 });
  paragraph(doc, `for the ${noun} ended ${longDate(input.periodEnd)}`, { ...centred, size: 12, colour: COLOUR.muted });

  const legalForm = LEGAL_FORMS[input.registryCompanyType ?? "ltd"].description;
  doc.y = Math.max(doc.y + 40, 440);
  heading(doc, "Company information");
  const fields: Field[] = [
    { label: "Director", value: input.directorName },
    { label: "Registered number", value: input.companyNumber },
    { label: "Legal form", value: legalForm.charAt(0).toUpperCase() + legalForm.slice(1) },
  ];
  if (input.jurisdiction !== undefined) fields.push({ label: "Registered in", value: JURISDICTIONS[input.jurisdiction].name });
  fields.push({ label: "Accounting period", value: `${longDate(input.periodStart)} to ${longDate(input.periodEnd)}` });
  fieldTable(doc, fields);
}

/** Drawn on the cover once the pages are laid out, so the page numbers are the real ones. */
function contents(doc: Doc, top: number, entries: readonly { title: string; page: number }[]): void {
  doc.switchToPage(0);
  doc.y = top;
  heading(doc, "Contents");
  fieldTable(
    doc,
    entries.map((entry) => ({ label: entry.title, value: `page ${entry.page}` })),
  );
}

const currentPageNumber = (doc: Doc): number => doc.bufferedPageRange().count;

function pageTitle(doc: Doc, title: string, input: DormantAccountsPdfInput, subtitle?: string): void {
  paragraph(doc, input.companyName, { font: FONT.bold, size: SIZE.subtitle, colour: COLOUR.muted, after: 1 });
  paragraph(doc, `Registered number ${input.companyNumber}`, { size: SIZE.small + 0.5, colour: COLOUR.muted, after: 8 });
  paragraph(doc, title, { font: FONT.bold, size: 15, colour: COLOUR.accent, after: subtitle === undefined ? 12 : 2 });
  if (subtitle !== undefined) paragraph(doc, subtitle, { size: SIZE.subtitle, colour: COLOUR.muted, after: 12 });
}

function balanceSheetPage(doc: Doc, input: DormantAccountsPdfInput, columns: readonly Column[], noun: string): void {
  pageTitle(doc, `Balance sheet as at ${longDate(input.periodEnd)}`, input);
  const decimals = decimalsFor(columns.flatMap((column) => Object.values(column.lines)));
  figuresTable(doc, {
    columns: columns.map((column) => `${longDate(column.balanceSheetDate)}\n\u00a3`),
    rows: balanceSheetRows(columns, decimals, LEGAL_FORMS[input.registryCompanyType ?? "ltd"].fundsLabel),
    columnWidth: 116,
  });
  gap(doc, 18);
  for (const statement of dormantAccountsStatements(noun, longDate(input.periodEnd))) {
    paragraph(doc, statement.text, { after: 7 });
  }
  const position = input.directorPosition?.trim() || "Director";
  // The approval and the signature under it stay on one page.
  ensureSpace(doc, APPROVAL_AND_SIGNATURE_HEIGHT);
  gap(doc, 4);
  paragraph(
    doc,
    `Approved by the board of directors on ${longDate(input.approvalDate)} and signed on its behalf by ${input.directorName}, ${position}.`,
    { after: 0 },
  );
  signatureBlock(doc, input.directorName, position, longDate(input.approvalDate));
}

function signatureBlock(doc: Doc, name: string, position: string, date: string): void {
  gap(doc, 36);
  const lineY = doc.y;
  doc
    .moveTo(PAGE.marginX, lineY)
    .lineTo(PAGE.marginX + 220, lineY)
    .lineWidth(0.6)
    .strokeColor(COLOUR.text)
    .stroke();
  doc.y = lineY + 5;
  paragraph(doc, name, { font: FONT.bold, after: 1 });
  paragraph(doc, position, { after: 1 });
  paragraph(doc, `Date: ${date}`, { colour: COLOUR.muted });
}

function note(doc: Doc, number: number, title: string, texts: readonly string[]): void {
  paragraph(doc, `${number}. ${title}`, { font: FONT.bold, colour: COLOUR.accent, after: 4 });
  for (const text of texts) paragraph(doc, text, { after: 5 });
  gap(doc, 8);
}

function notesPage(doc: Doc, input: DormantAccountsPdfInput, noun: string): void {
  pageTitle(doc, "Notes to the financial statements", input, `for the ${noun} ended ${longDate(input.periodEnd)}`);
  const legalForm = LEGAL_FORMS[input.registryCompanyType ?? "ltd"];
  const jurisdiction = input.jurisdiction === undefined ? "" : `, registered in ${JURISDICTIONS[input.jurisdiction].name}`;
  note(doc, 1, "General information", [
    `${input.companyName} is ${legalForm.description}${jurisdiction}, with registered number ${input.companyNumber}.`,
  ]);
  note(doc, 2, "Accounting policies", [
    "Basis of preparation. These financial statements have been prepared in accordance with the micro-entity provisions " +
      "of the Companies Act 2006 and FRS 105 \u201cThe Financial Reporting Standard applicable to the Micro-entities Regime\u201d. " +
      "They are prepared under the historical cost convention and presented in pounds sterling (\u00a3).",
  ]);
  const trading =
    (input.tradingStatus ?? "never-traded") === "never-traded"
      ? "It has not traded since its incorporation."
      : `It traded in the past but did not trade during the ${noun}.`;
  note(doc, 3, "Dormant status", [
    `The company has been dormant throughout the ${noun}, within the meaning of section 1169 of the Companies Act 2006. ${trading}`,
  ]);
  const prior = input.priorYear === undefined ? "" : ` (previous period: ${input.priorYear.averageEmployees ?? 0})`;
  note(doc, 4, "Employees", [
    `The average number of persons employed by the company (including directors) during the ${noun} was ${input.averageEmployees ?? 0}${prior}.`,
  ]);
}

/**
 * The dormant accounts of one accounting period (FRS 105 micro-entity, audit exempt) as a
 * human-readable PDF: cover, balance sheet with the statutory statements and the
 * director's approval, and notes. It takes the iXBRL renderer's input, so both documents show the
 * same facts. Deterministic: the same input gives the same bytes.
 * @throws PdfInputError when the input is incomplete, inconsistent or does not balance.
 */
export async function renderDormantAccountsPdf(input: DormantAccountsPdfInput): Promise<Buffer> {
  const problems = findDormantAccountsInputProblems(input);
  checkDocumentOptions(problems, input);
  if (problems.length > 0) throw new PdfInputError(problems);

  const noun = periodNoun(input.periodStart, input.periodEnd);
  const columns: Column[] = [{ balanceSheetDate: input.periodEnd, figures: input.current, lines: balanceSheetLines(input.current) }];
  if (input.priorYear !== undefined) {
    columns.push({ balanceSheetDate: input.priorYear.periodEnd, figures: input.priorYear, lines: balanceSheetLines(input.priorYear) });
  }
  const { doc, finish } = openFramedDocument({
    title: `${input.companyName}: unaudited financial statements for the ${noun} ended ${longDate(input.periodEnd)}`,
    subject: "Dormant company accounts (FRS 105 micro-entity, exempt from audit under section 480 of the Companies Act 2006)",
    keywords: `dormant accounts, micro-entity, FRS 105, ${input.companyNumber}`,
    runningHead: "Dormant company accounts",
    company: { name: input.companyName, number: input.companyNumber },
    generatedAt: input.generatedAt,
    sandbox: input.sandbox === true,
    sandboxNotice: "Sandbox mode: not delivered to Companies House.",
  });
  coverPage(doc, input, noun);
  const contentsTop = doc.y;
  doc.addPage();
  const balanceSheetPageNumber = currentPageNumber(doc);
  balanceSheetPage(doc, input, columns, noun);
  doc.addPage();
  const notesPageNumber = currentPageNumber(doc);
  notesPage(doc, input, noun);
  contents(doc, contentsTop, [
    { title: "Balance sheet", page: balanceSheetPageNumber },
    { title: "Notes to the financial statements", page: notesPageNumber },
  ]);
  return finish();
}
