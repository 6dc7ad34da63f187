import { FONT } from "./fonts.ts";
import { createPdfDocument } from "./shared-faces.ts";
import { AUTHOR, COLOUR, CONTENT_WIDTH, PAGE, SANDBOX_MARK, SIZE } from "./style.ts";
import { formatTimestamp, instantOf } from "./timestamp.ts";

export interface FrameOptions {
  /** Document information: Title, Subject and Keywords. */
  readonly title: string;
  readonly subject: string;
  readonly keywords: string;
  /** Header, left: what the document is. */
  readonly runningHead: string;
  /** Header, right: whose it is; a long name is cut short, the number never. */
  readonly company: { readonly name: string; readonly number: string };
  /** ISO 8601 date-time with offset: CreationDate and the footer. */
  readonly generatedAt: string;
  readonly sandbox: boolean;
  /** Sentence after SANDBOX — NOT FILED in the banner. */
  readonly sandboxNotice: string;
}

/** A pdfkit document with the platform's page frame; `finish` draws the frame on every page and returns the bytes. */
export interface FramedDocument {
  readonly doc: PDFKit.PDFDocument;
  finish(): Promise<Buffer>;
}

export function openFramedDocument(options: FrameOptions): FramedDocument {
  const generated = instantOf(options.generatedAt);
  const doc = createPdfDocument({
    size: PAGE.size,
    margins: {
      top: options.sandbox ? PAGE.contentTopSandbox : PAGE.contentTop,
      bottom: PAGE.contentBottom,
      left: PAGE.marginX,
      right: PAGE.marginX,
    },
    bufferPages: true,
    font: FONT.regular,
    lang: "en-GB",
    displayTitle: true,
    info: {
      Title: options.title,
      Author: AUTHOR,
      Subject: options.subject,
      Keywords: options.keywords,
      Creator: AUTHOR,
      CreationDate: generated,
      ModDate: generated,
    },
  });
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.fillColor(COLOUR.text).fontSize(SIZE.body);

  return {
    doc,
    finish: () => {
      const { start, count } = doc.bufferedPageRange();
      for (let index = start; index < start + count; index += 1) {
        doc.switchToPage(index);
        drawFrame(doc, options, index - start + 1, count);
      }
      doc.end();
      return bytes;
    },
  };
}

function drawFrame(doc: PDFKit.PDFDocument, options: FrameOptions, pageNumber: number, pageCount: number): void {
  const bottomMargin = doc.page.margins.bottom;
  // Frame text sits in the margins; without this pdfkit would start a new page for it.
  doc.page.margins.bottom = 0;
  const right = PAGE.width - PAGE.marginX;
  const half = CONTENT_WIDTH / 2;

  doc.font(FONT.bold).fontSize(SIZE.small).fillColor(COLOUR.accent);
  oneLine(doc, options.runningHead, PAGE.marginX, 36, half - 6, "left");
  doc.font(FONT.regular).fillColor(COLOUR.muted);
  const number = ` \u00b7 ${options.company.number}`;
  const numberWidth = doc.widthOfString(number);
  oneLine(doc, number, right - numberWidth - 1, 36, numberWidth + 1, "right");
  oneLine(doc, options.company.name, PAGE.marginX + half + 6, 36, half - 6 - numberWidth, "right");
  doc.moveTo(PAGE.marginX, 50).lineTo(right, 50).lineWidth(0.75).strokeColor(COLOUR.accent).stroke();

  const footerY = PAGE.height - 44;
  doc
    .moveTo(PAGE.marginX, footerY - 8)
    .lineTo(right, footerY - 8)
    .lineWidth(0.5)
    .strokeColor(COLOUR.rule)
    .stroke();
  doc.font(FONT.regular).fontSize(SIZE.small).fillColor(COLOUR.muted);
  oneLine(doc, `Generated ${formatTimestamp(options.generatedAt)} by ${AUTHOR}`, PAGE.marginX, footerY, CONTENT_WIDTH - 90, "left");
  oneLine(doc, `Page ${pageNumber} of ${pageCount}`, right - 80, footerY, 80, "right");

  if (options.sandbox) drawSandboxMarks(doc, options.sandboxNotice);
  doc.page.margins.bottom = bottomMargin;
}

function drawSandboxMarks(doc: PDFKit.PDFDocument, notice: string): void {
  const bandY = 60;
  doc.rect(PAGE.marginX, bandY, CONTENT_WIDTH, 26).fill(COLOUR.sandbox);
  doc.font(FONT.bold).fontSize(SIZE.body).fillColor("#ffffff");
  doc.text(SANDBOX_MARK, PAGE.marginX + 10, bandY + 8, { lineBreak: false });
  const markWidth = doc.widthOfString(SANDBOX_MARK);
  doc.font(FONT.regular).fontSize(SIZE.small + 0.5);
  oneLine(doc, notice, PAGE.marginX + 20 + markWidth, bandY + 9, CONTENT_WIDTH - 30 - markWidth, "left");

  doc.save();
  doc.rotate(-50, { origin: [PAGE.width / 2, PAGE.height / 2] });
  doc.font(FONT.bold).fontSize(48).fillColor(COLOUR.sandbox).fillOpacity(0.08);
  const markWidthLarge = doc.widthOfString(SANDBOX_MARK);
  doc.text(SANDBOX_MARK, (PAGE.width - markWidthLarge) / 2, PAGE.height / 2 - 24, { lineBreak: false });
  doc.restore();
}

/** Text on a single line at a fixed place, cut with an ellipsis when it does not fit `width`. */
function oneLine(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, align: "left" | "right"): void {
  doc.text(text, x, y, { width, align, height: doc.currentLineHeight(true) + 1, ellipsis: true });
}
