import { longDate } from "../ixbrl/long-date.ts";
import { assertValidCt600PdfInput } from "./ct600-pdf-input.ts";
import { figuresTable } from "./figures-table.ts";
import { FONT } from "./fonts.ts";
import { irmarkBase32 } from "./irmark.ts";
import { fieldTable, gap, heading, paragraph, quotedBox, type Field } from "./layout.ts";
import { openFramedDocument } from "./page-frame.ts";
import { COLOUR, SIZE } from "./style.ts";
import { formatTimestamp } from "./timestamp.ts";
import type { Ct600PdfInput } from "./pdf-inputs.ts";

/** Reason given on a dormant nil return for supplying neither accounts nor computations. */
const DORMANT_REASON = "Company dormant";
/** Every figure of a nil return. */
const NIL = "0.00";
const DECLARATION =
  "The information I have given in this company tax return is correct and complete to the best of my knowledge and belief.";

const ABOUT =
  "This is a human-readable copy of the Company Tax Return filed electronically for the company. The IRmark is a " +
  "digest of the return as submitted; HMRC's receipt quotes the same digest in base32, so matching the two shows " +
  "that HMRC received exactly this return. Keep this document with the receipt for the company's records.";

function statusLine(input: Ct600PdfInput): { text: string; colour: string } {
  if (input.sandbox === true) return { text: "Sandbox: not filed with HMRC", colour: COLOUR.sandbox };
  const acceptedAt = input.receipt?.acceptedAt;
  if (acceptedAt !== undefined) return { text: `Accepted by HMRC on ${formatTimestamp(acceptedAt)}`, colour: COLOUR.accepted };
  return { text: "Submitted to HMRC: no acceptance recorded yet", colour: COLOUR.muted };
}

function companyFields(input: Ct600PdfInput): Field[] {
  const fields: Field[] = [
    { label: "Company name", value: input.companyName },
    { label: "Company registration number", value: input.companyNumber, monospace: true },
    { label: "Unique Taxpayer Reference (UTR)", value: input.utr, monospace: true },
    { label: "Period covered by this return", value: `from ${longDate(input.periodStart)}\nto ${longDate(input.periodEnd)}` },
    { label: "Type of return", value: (input.returnType ?? "new") === "new" ? "New return" : "Amended return" },
  ];
  if (input.part !== undefined) {
    fields.push({
      label: "Split accounting period",
      value:
        `Part ${input.part.number} of ${input.part.of}: a return covers at most 12 months, so the accounting period ` +
        `is filed as ${input.part.of} returns.`,
    });
  }
  return fields;
}

function submissionFields(input: Ct600PdfInput): Field[] {
  const fields: Field[] = [
    { label: "IRmark (base64, as filed)", value: input.irmark, monospace: true },
    { label: "IRmark (base32, as on the receipt)", value: irmarkBase32(input.irmark), monospace: true },
  ];
  const receipt = input.receipt;
  if (receipt?.correlationId !== undefined) fields.push({ label: "Correlation ID", value: receipt.correlationId, monospace: true });
  if (receipt?.acceptedAt !== undefined) fields.push({ label: "Accepted by HMRC", value: formatTimestamp(receipt.acceptedAt) });
  return fields;
}

/**
 * The nil CT600 of a dormant company as a human-readable PDF: company and period, the
 * dormant reasons, the nil figures, the declaration, the IRmark and, once accepted, the tax
 * authority's receipt. Deterministic: the same input gives the same bytes.
 * @throws PdfInputError when the input is incomplete or malformed.
 */
export async function renderCt600Pdf(input: Ct600PdfInput): Promise<Buffer> {
  assertValidCt600PdfInput(input);
  const period = `${longDate(input.periodStart)} to ${longDate(input.periodEnd)}`;
  const partNote = input.part === undefined ? "" : ` (part ${input.part.number} of ${input.part.of})`;
  const { doc, finish } = openFramedDocument({
    title: `CT600 Company Tax Return: ${input.companyName} (${input.companyNumber}), ${period}${partNote}`,
    subject: "Nil Company Tax Return (CT600) of a dormant company",
    keywords: `CT600, nil return, dormant company, ${input.companyNumber}, UTR ${input.utr}`,
    runningHead: "Company Tax Return CT600",
    company: { name: input.companyName, number: input.companyNumber },
    generatedAt: input.generatedAt,
    sandbox: input.sandbox === true,
    sandboxNotice: "Sandbox mode: this return was not sent to HMRC.",
  });

  paragraph(doc, "Company Tax Return", { font: FONT.bold, size: SIZE.title, colour: COLOUR.accent, after: 2 });
  const subtitle =
    input.part === undefined
      ? "CT600 nil return for a dormant company"
      : `CT600 nil return for a dormant company \u00b7 return ${input.part.number} of ${input.part.of}`;
  paragraph(doc, subtitle, { size: SIZE.subtitle, colour: COLOUR.muted, after: 4 });
  const status = statusLine(input);
  paragraph(doc, status.text, { font: FONT.bold, colour: status.colour, after: 0 });

  heading(doc, "Company information");
  fieldTable(doc, companyFields(input));

  heading(doc, "Return information summary");
  fieldTable(doc, [
    { label: "Accounts", value: `Not attached. Reason: ${DORMANT_REASON}` },
    { label: "Computations", value: `Not attached. Reason: ${DORMANT_REASON}` },
  ]);

  heading(doc, "Tax calculation");
  figuresTable(doc, {
    columns: ["\u00a3"],
    rows: [
      { label: "Turnover: total turnover from trade", amounts: [NIL], style: "plain" },
      { label: "Profits chargeable to Corporation Tax", amounts: [NIL], style: "plain" },
      { label: "Corporation Tax chargeable", amounts: [NIL], style: "plain" },
      { label: "Tax payable", amounts: [NIL], style: "total" },
    ],
  });

  heading(doc, "Declaration");
  paragraph(doc, DECLARATION, { after: 2 });
  fieldTable(doc, [
    { label: "Declaration accepted", value: "Yes" },
    { label: "Name", value: input.declarantName },
    { label: "Status", value: input.declarantStatus },
  ]);

  // The filing record gets a page of its own: page 1 is the return as filed.
  doc.addPage();
  heading(doc, "Electronic submission and receipt");
  fieldTable(doc, submissionFields(input));
  gap(doc, 12);
  const message = input.receipt?.message;
  if (message === undefined) {
    paragraph(doc, "No receipt message from HMRC is recorded for this return.", { colour: COLOUR.muted });
  } else {
    quotedBox(doc, "HMRC receipt", message);
  }
  heading(doc, "About this document", 30);
  paragraph(doc, ABOUT, { colour: COLOUR.muted, size: SIZE.small + 0.5 });
  return finish();
}
