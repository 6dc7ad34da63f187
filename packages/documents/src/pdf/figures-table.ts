import { FONT } from "./fonts.ts";
import { ensureSpace } from "./layout.ts";
import { COLOUR, CONTENT_WIDTH, PAGE, SIZE } from "./style.ts";

/**
 * A table of money: a label column and one right-aligned column per period. Figures line up on
 * their last digit; a closing bracket of a negative figure hangs to the right of that line, as
 * in printed accounts.
 */

type Doc = PDFKit.PDFDocument;

export type FigureRowStyle = "heading" | "plain" | "subtotal" | "total";

export interface FigureRow {
  readonly label: string;
  /** One display string per column, e.g. `1,234`, `(1,234)` or `-`; empty for a heading. */
  readonly amounts: readonly string[];
  readonly style: FigureRowStyle;
  /** Indent the label one step (an item within a heading). */
  readonly indent?: boolean;
}

export interface FiguresTableOptions {
  /** Column headings; `\n` separates lines (e.g. the date, then `£`). */
  readonly columns: readonly string[];
  readonly rows: readonly FigureRow[];
  readonly columnWidth?: number;
}

const PADDING = 3.5;
const INDENT = 12;

export function figuresTable(doc: Doc, { columns, rows, columnWidth = 92 }: FiguresTableOptions): void {
  const labelWidth = CONTENT_WIDTH - columns.length * columnWidth;
  const columnX = (index: number): number => PAGE.marginX + labelWidth + index * columnWidth;
  doc.font(FONT.regular).fontSize(SIZE.body);
  const bracket = doc.widthOfString(")");

  doc.font(FONT.bold).fontSize(SIZE.body);
  const headerHeight = Math.max(...columns.map((column) => doc.heightOfString(column, { width: columnWidth - bracket })));
  ensureSpace(doc, headerHeight + 2 * PADDING + 60);
  const headerTop = doc.y;
  columns.forEach((column, index) => {
    doc.fillColor(COLOUR.text).text(column, columnX(index), headerTop, { width: columnWidth - bracket, align: "right" });
  });
  doc.y = headerTop + headerHeight + PADDING;

  for (const row of rows) {
    const bold = row.style === "heading" || row.style === "total";
    const labelX = PAGE.marginX + (row.indent === true ? INDENT : 0);
    const labelOptions = { width: labelWidth - (labelX - PAGE.marginX) - 8 };
    doc.font(bold ? FONT.bold : FONT.regular).fontSize(SIZE.body);
    const gapAbove = row.style === "heading" ? 8 : row.style === "plain" ? 0 : 3;
    const height = doc.heightOfString(row.label, labelOptions) + 2 * PADDING + gapAbove;
    ensureSpace(doc, height);
    const top = doc.y + gapAbove;
    doc.fillColor(COLOUR.text).text(row.label, labelX, top + PADDING, labelOptions);
    row.amounts.forEach((amount, index) => {
      const negative = amount.endsWith(")");
      doc.text(amount, columnX(index), top + PADDING, { width: columnWidth - (negative ? 0 : bracket), align: "right" });
      if (row.style === "subtotal" || row.style === "total") {
        rule(doc, columnX(index) + 16, top, columnX(index) + columnWidth, 0.6);
      }
      if (row.style === "total") {
        const bottom = top + height - gapAbove;
        rule(doc, columnX(index) + 16, bottom, columnX(index) + columnWidth, 0.6);
        rule(doc, columnX(index) + 16, bottom + 2, columnX(index) + columnWidth, 0.6);
      }
    });
    doc.y = top + height - gapAbove;
    if (row.style === "total") doc.y += 4;
  }
}

function rule(doc: Doc, fromX: number, y: number, toX: number, width: number): void {
  doc.moveTo(fromX, y).lineTo(toX, y).lineWidth(width).strokeColor(COLOUR.text).stroke();
}
