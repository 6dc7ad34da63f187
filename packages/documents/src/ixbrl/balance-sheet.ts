import type { PeriodContexts } from "./accounts-contexts.ts";
import { longDate } from "./long-date.ts";
import type { BalanceSheetFigures } from "./dormant-accounts-input.ts";
import type { ContextDefinition, InlineFacts } from "./inline-facts.ts";
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

interface Row {
  readonly label: (values: readonly number[]) => string;
  readonly concept: string;
  readonly context: (contexts: PeriodContexts) => ContextDefinition;
  readonly value: (lines: BalanceSheetLines) => number;
  readonly style: Style;
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
  const value = row.value(balanceSheetLines(column.figures));
  const fact = facts.money(row.concept, row.context(column.contexts), value, decimals);
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
  const assetRows: Row[] = [
    ...(showsSharesNotPaid
      ? [{
          label: fixed("Called up share capital not paid"),
          concept: CONCEPT.sharesNotPaid,
          context: (c: PeriodContexts) => c.instant,
          value: (l: BalanceSheetLines) => l.sharesNotPaid,
          style: "plain" as const,
        }]
      : []),
    { label: fixed("Current assets"), concept: CONCEPT.currentAssets, context: (c) => c.instant, value: (l) => l.currentAssets, style: "plain" },
    {
      label: fixed("Creditors: amounts falling due within one year"),
      concept: CONCEPT.creditors,
      context: (c) => c.creditorsWithinOneYear,
      value: (l) => l.creditorsWithinOneYear,
      style: "plain",
    },
    {
      label: signedLabel("Net current assets", "Net current liabilities"),
      concept: CONCEPT.netCurrentAssets,
      context: (c) => c.instant,
      value: (l) => l.netCurrentAssets,
      style: "subtotal",
    },
    {
      label: fixed("Total assets less current liabilities"),
      concept: CONCEPT.totalAssetsLessCurrentLiabilities,
      context: (c) => c.instant,
      value: (l) => l.totalAssetsLessCurrentLiabilities,
      style: "subtotal",
    },
    { label: signedLabel("Net assets", "Net liabilities"), concept: CONCEPT.netAssets, context: (c) => c.instant, value: (l) => l.netAssets, style: "total" },
  ];
  const equityRows: Row[] = [
    { label: fixed("Called up share capital"), concept: CONCEPT.equity, context: (c) => c.shareCapital, value: (l) => l.shareCapital, style: "plain" },
    {
      label: fixed("Profit and loss account"),
      concept: CONCEPT.equity,
      context: (c) => c.retainedEarnings,
      value: (l) => l.profitLossAccount,
      style: "plain",
    },
    { label: fixed(fundsLabel), concept: CONCEPT.equity, context: (c) => c.instant, value: (l) => l.equity, style: "total" },
  ];
  const row = (definition: Row): ElementNode => {
    const values = columns.map((column) => definition.value(balanceSheetLines(column.figures)));
    return el(
      "tr",
      { class: definition.style },
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
