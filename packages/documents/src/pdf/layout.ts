import { FONT } from "./fonts.ts";
import { COLOUR, CONTENT_WIDTH, PAGE, SIZE } from "./style.ts";

/**
 * Flowing layout on a pdfkit document: each block measures itself, moves to a new page when it
 * would cross the bottom margin, draws at the left margin and leaves `doc.y` below itself.
 */

type Doc = PDFKit.PDFDocument;

const ROW_PADDING = 4;

export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

export function gap(doc: Doc, points: number): void {
  doc.y += points;
}

export interface ParagraphStyle {
  readonly font?: string;
  readonly size?: number;
  readonly colour?: string;
  readonly align?: "left" | "center" | "right";
  /** Space after the paragraph, in points (default 6). */
  readonly after?: number;
  readonly width?: number;
  readonly x?: number;
}

export function paragraph(doc: Doc, text: string, style: ParagraphStyle = {}): void {
  const x = style.x ?? PAGE.marginX;
  const width = style.width ?? CONTENT_WIDTH - (x - PAGE.marginX);
  doc
    .font(style.font ?? FONT.regular)
    .fontSize(style.size ?? SIZE.body)
    .fillColor(style.colour ?? COLOUR.text);
  const options = { width, align: style.align ?? "left", lineGap: 1.5 } as const;
  ensureSpace(doc, doc.heightOfString(text, options));
  doc.text(text, x, doc.y, options);
  doc.y += style.after ?? 6;
}

/** A horizontal line across the content width at `y`. */
function ruleAcross(doc: Doc, y: number, width: number, colour: string): void {
  doc
    .moveTo(PAGE.marginX, y)
    .lineTo(PAGE.marginX + CONTENT_WIDTH, y)
    .lineWidth(width)
    .strokeColor(colour)
    .stroke();
}

/** A section heading with a rule under it; kept on the same page as the first `keepWith` points below it. */
export function heading(doc: Doc, text: string, keepWith = 60): void {
  doc.font(FONT.bold).fontSize(SIZE.heading);
  ensureSpace(doc, 14 + doc.heightOfString(text, { width: CONTENT_WIDTH }) + keepWith);
  doc.y += 14;
  doc.fillColor(COLOUR.accent).text(text, PAGE.marginX, doc.y, { width: CONTENT_WIDTH });
  const ruleY = doc.y + 3;
  ruleAcross(doc, ruleY, 0.75, COLOUR.accent);
  doc.y = ruleY + 4;
}

export interface Field {
  readonly label: string;
  readonly value: string;
  /** Set in a fixed-width face: references a reader may compare character by character. */
  readonly monospace?: boolean;
}

/** Label and value rows separated by hairlines; long values wrap within their column. */
export function fieldTable(doc: Doc, fields: readonly Field[], labelWidth = 178): void {
  const valueX = PAGE.marginX + labelWidth;
  const valueWidth = CONTENT_WIDTH - labelWidth;
  for (const field of fields) {
    const valueFont = field.monospace === true ? FONT.mono : FONT.regular;
    doc.font(FONT.regular).fontSize(SIZE.body);
    const labelHeight = doc.heightOfString(field.label, { width: labelWidth - 10 });
    doc.font(valueFont);
    const valueHeight = doc.heightOfString(field.value, { width: valueWidth });
    const height = Math.max(labelHeight, valueHeight) + 2 * ROW_PADDING;
    ensureSpace(doc, height);
    const top = doc.y;
    doc
      .font(FONT.regular)
      .fillColor(COLOUR.muted)
      .text(field.label, PAGE.marginX, top + ROW_PADDING, { width: labelWidth - 10 });
    doc
      .font(valueFont)
      .fillColor(COLOUR.text)
      .text(field.value, valueX, top + ROW_PADDING, { width: valueWidth });
    const bottom = top + height;
    ruleAcross(doc, bottom, 0.4, COLOUR.rule);
    doc.y = bottom;
  }
}

/** Quoted material such as a receipt: a bold caption above the text on a tinted background, kept together. */
export function quotedBox(doc: Doc, caption: string, text: string): void {
  const inset = 8;
  const captionGap = 4;
  doc.font(FONT.bold).fontSize(SIZE.body);
  const captionHeight = doc.heightOfString(caption, { width: CONTENT_WIDTH });
  doc.font(FONT.regular).fontSize(SIZE.body - 0.5);
  const options = { width: CONTENT_WIDTH - 2 * inset, lineGap: 1.5 };
  const boxHeight = doc.heightOfString(text, options) + 2 * inset;
  ensureSpace(doc, captionHeight + captionGap + boxHeight);
  doc.font(FONT.bold).fontSize(SIZE.body).fillColor(COLOUR.text).text(caption, PAGE.marginX, doc.y, { width: CONTENT_WIDTH });
  const top = doc.y + captionGap;
  doc.rect(PAGE.marginX, top, CONTENT_WIDTH, boxHeight).fill(COLOUR.band);
  doc
    .font(FONT.regular)
    .fontSize(SIZE.body - 0.5)
    .fillColor(COLOUR.text)
    .text(text, PAGE.marginX + inset, top + inset, options);
  doc.y = top + boxHeight;
}
