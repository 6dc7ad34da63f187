import type { PeriodContexts } from "./accounts-contexts.ts";
import { longDate } from "./long-date.ts";
import type { BalanceSheetFigures } from "./dormant-accounts-input.ts";
import type { InlineFacts } from "./inline-facts.ts";
import { el, type ElementNode } from "./markup.ts";
import type { MoneyDecimals } from "./money.ts";
import { CONCEPT } from "./taxonomy.ts";

/** Every line of the micro-entity balance sheet of a dormant company, in pence. */
export interface BalanceSheetLines {
  readonly sharesNotPaid: number;
  readonly currentAssets: number;
  readonly creditorsWithinOneYear: number;
  readonly netCurrentAssets: number;
  readonly totalAssetsLessCurrentLiabilities: number;
  readonly netAssets: number;
  readonly shareCapital: number;
  readonly profitLossAccount: number;
  readonly equity: number;
}

/** The totals follow from the figures: a dormant company has no fixed assets, long-term creditors or provisions. */
export function balanceSheetLines(figures: BalanceSheetFigures): BalanceSheetLines {
  const sharesNotPaid = figures.sharesNotPaid ?? 0;
  const netCurrentAssets = figures.cash - figures.creditors;
  const totalAssetsLessCurrentLiabilities = sharesNotPaid + netCurrentAssets;
  return {
    sharesNotPaid,
    currentAssets: figures.cash,
    creditorsWithinOneYear: figures.creditors,
    netCurrentAssets,
    totalAssetsLessCurrentLiabilities,
    netAssets: totalAssetsLessCurrentLiabilities,
    shareCapital: figures.shareCapital,
    profitLossAccount: figures.profitLossAccount,
    equity: figures.shareCapital + figures.profitLossAccount,
  };
}

export interface BalanceSheetColumn {
  readonly balanceSheetDate: string;
  readonly contexts: PeriodContexts;
  readonly figures: BalanceSheetFigures;
}

type Style = "plain" | "subtotal" | "total";

/** One line of the table: its label, the concept its amounts are tagged with, in which of a column's contexts. */
interface Row {
  readonly label: (values: readonly number[]) => string;
  readonly concept: string;
  readonly context: keyof PeriodContexts;
  readonly line: keyof BalanceSheetLines;
  /** Default "plain". */
  readonly style?: Style;
}

/** "Net current assets", "Net current liabilities", or both when the columns differ in sign. */
function signedLabel(positive: string, negative: string): (values: readonly number[]) => string {
  return (values) => {
    if (values.every((value) => value >= 0)) return positive;
    if (values.every((value) => value <= 0)) return negative;
    return `${positive} (${negative.split(" ").at(-1) ?? ""})`;
  };
}

const fixed = (label: string) => () => label;

function amountCell(facts: InlineFacts, row: Row, column: BalanceSheetColumn, decimals: MoneyDecimals): ElementNode {
  const value = balanceSheetLines(column.figures)[row.line];
  const fact = facts.money(row.concept, column.contexts[row.context], value, decimals);
  return el("td", { class: "amount" }, value < 0 ? ["(", fact, ")"] : fact);
}

/**
 * The balance sheet as a table with one column per balance sheet date (current, then prior when
 * known). Negative amounts are tagged `sign="-"` and shown in brackets.
 */
export function renderBalanceSheet(
  facts: InlineFacts,
  columns: readonly BalanceSheetColumn[],
  decimals: MoneyDecimals,
  fundsLabel: string,
): ElementNode {
  const showsSharesNotPaid = columns.some((column) => column.figures.sharesNotPaid !== undefined);
  const sharesNotPaid: Row = {
    label: fixed("Called up share capital not paid"),
    concept: CONCEPT.sharesNotPaid,
    context: "instant",
    line: "sharesNotPaid",
  };
  const assetRows: readonly Row[] = [
    ...(showsSharesNotPaid ? [sharesNotPaid] : []),
    { label: fixed("Current assets"), concept: CONCEPT.currentAssets, context: "instant", line: "currentAssets" },
    {
      label: fixed("Creditors: amounts falling due within one year"),
      concept: CONCEPT.creditors,
      context: "creditorsWithinOneYear",
      line: "creditorsWithinOneYear",
    },
    {
      label: signedLabel("Net current assets", "Net current liabilities"),
      concept: CONCEPT.netCurrentAssets,
      context: "instant",
      line: "netCurrentAssets",
      style: "subtotal",
    },
    {
      label: fixed("Total assets less current liabilities"),
      concept: CONCEPT.totalAssetsLessCurrentLiabilities,
      context: "instant",
      line: "totalAssetsLessCurrentLiabilities",
      style: "subtotal",
    },
    {
      label: signedLabel("Net assets", "Net liabilities"),
      concept: CONCEPT.netAssets,
      context: "instant",
      line: "netAssets",
      style: "total",
    },
  ];
  const equityRows: readonly Row[] = [
    { label: fixed("Called up share capital"), concept: CONCEPT.equity, context: "shareCapital", line: "shareCapital" },
    { label: fixed("Profit and loss account"), concept: CONCEPT.equity, context: "retainedEarnings", line: "profitLossAccount" },
    { label: fixed(fundsLabel), concept: CONCEPT.equity, context: "instant", line: "equity", style: "total" },
  ];
  const row = (definition: Row): ElementNode => {
    const values = columns.map((column) => balanceSheetLines(column.figures)[definition.line]);
    return el(
      "tr",
      { class: definition.style ?? "plain" },
      el("td", { class: "label" }, definition.label(values)),
      columns.map((column) => amountCell(facts, definition, column, decimals)),
    );
  };
  const heading = (text: string): ElementNode =>
    el("tr", { class: "heading" }, el("td", { class: "label", colspan: String(columns.length + 1) }, text));

  return el(
    "table",
    { class: "balance-sheet" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { class: "label" }, ""),
        columns.map((column) => el("th", { class: "amount" }, longDate(column.balanceSheetDate), el("br", {}), "\u00a3")),
      ),
    ),
    el("tbody", {}, assetRows.map(row), heading("Capital and reserves"), equityRows.map(row)),
  );
}
