import { SubmitTaxPartRequest } from "@dormant/contracts";
import type { Ct600PdfInput, Ct600Receipt } from "@dormant/documents";
import { isoDate } from "../db/date-columns.ts";
import type { PartRecord } from "../state/filing-record.ts";
import type { PdfJob } from "./pdf-jobs.ts";

/** The part's return as it was submitted (the stored tax.submit_part request has no credentials). */
const SubmittedReturn = SubmitTaxPartRequest.omit({ credentials: true });

/** What a part's PDF is rendered from (a Prisma FilingPart and a PartRecord both are one). */
export type RenderablePart = Pick<
  PartRecord,
  "partNumber" | "periodStart" | "periodEnd" | "irmark" | "submitRequest" | "taxCorrelationId" | "taxAcceptedAt" | "taxReceiptMessage"
>;

/** A part whose submission is not recorded yet (its outcome overtook the record): no IRmark to print. */
export class PartNotRecordedError extends Error {
  override readonly name = "PartNotRecordedError";
}

function receiptOf(part: RenderablePart): Ct600Receipt {
  return {
    ...(part.taxCorrelationId ? { correlationId: part.taxCorrelationId } : {}),
    ...(part.taxAcceptedAt ? { acceptedAt: part.taxAcceptedAt.toISOString() } : {}),
    ...(part.taxReceiptMessage ? { message: part.taxReceiptMessage } : {}),
  };
}

/**
 * What the ct600_pdf of one CT600 return is rendered from (`renderCt600Pdf`): the company, UTR,
 * period and declarant exactly as they were submitted for this part, its IRmark, "part N of 2"
 * for a split period, and the tax authority's receipt (correlation id, acceptance time, receipt
 * message). Rendering it may still fail with PdfInputError when the stored facts cannot be
 * rendered (a bug: they were submitted).
 * @throws PartNotRecordedError when the part's IRmark is not recorded yet.
 */
export function ct600PartPdfJob(filing: { id: string; periodSplit: boolean }, part: RenderablePart, generatedAt: Date): PdfJob {
  if (!part.irmark) throw new PartNotRecordedError(`part ${part.partNumber} of ${filing.id} has no recorded submission yet`);
  const submitted = SubmittedReturn.parse(part.submitRequest);
  const input: Ct600PdfInput = {
    companyName: submitted.company.name,
    companyNumber: submitted.company.number,
    utr: submitted.company.utr,
    periodStart: isoDate(part.periodStart),
    periodEnd: isoDate(part.periodEnd),
    declarantName: submitted.declarant.name,
    declarantStatus: submitted.declarant.status,
    irmark: part.irmark,
    ...(filing.periodSplit ? { part: { number: part.partNumber, of: submitted.parts_total } } : {}),
    receipt: receiptOf(part),
    generatedAt: generatedAt.toISOString(),
  };
  return { type: "ct600_pdf", input };
}
