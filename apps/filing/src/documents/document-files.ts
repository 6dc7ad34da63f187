import { DOCUMENT_MEDIA_TYPES, type DocumentType } from "@dormant/contracts";
import { isoDate } from "../db/date-columns.ts";
import type { Filing } from "../generated/prisma/client.ts";

/**
 * The file name of a rendered PDF, in the style of the documents kept at submit time: a CT600
 * return is named after the filing (`fil_…-ct600.pdf`, `fil_…-ct600-part2.pdf` for a split
 * period, beside `fil_…-ct600-part2.xml`), the accounts after the company and period
 * (`00000001-accounts-2026-03-31.pdf`, beside the `.xhtml`).
 */
export function renderedFileName(
  filing: Pick<Filing, "id" | "periodSplit" | "companyNumber" | "periodEnd">,
  type: "ct600_pdf" | "accounts_pdf",
  partNumber: number | null,
): string {
  if (type === "accounts_pdf") return `${filing.companyNumber}-accounts-${isoDate(filing.periodEnd)}.pdf`;
  return filing.periodSplit ? `${filing.id}-ct600-part${partNumber}.pdf` : `${filing.id}-ct600.pdf`;
}

/** What a document row needs besides its filing. */
export interface RenderedDocument {
  type: DocumentType;
  partNumber: number | null;
  mediaType: string;
  fileName: string;
  content: Buffer<ArrayBuffer>;
  generatedAt: Date;
}

export function pdfDocument(
  filing: Pick<Filing, "id" | "periodSplit" | "companyNumber" | "periodEnd">,
  type: "ct600_pdf" | "accounts_pdf",
  partNumber: number | null,
  content: Buffer<ArrayBuffer>,
  generatedAt: Date,
): RenderedDocument {
  return {
    type,
    partNumber,
    mediaType: DOCUMENT_MEDIA_TYPES[type],
    fileName: renderedFileName(filing, type, partNumber),
    content,
    generatedAt,
  };
}
