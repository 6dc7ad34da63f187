import { z } from "zod";
import { DateTime, type FilingType, fieldError } from "./primitives.ts";

export const DocumentType = z
  .enum(["ct600_pdf", "ct600_xml", "ixbrl_accounts", "accounts_pdf"], {
    error: fieldError("must be one of: ct600_pdf, ct600_xml, ixbrl_accounts, accounts_pdf"),
  })
  .meta({
    id: "DocumentType",
    description:
      "`ct600_pdf` CT600 form as PDF and `ct600_xml` the raw submission XML (CT600 filings); `ixbrl_accounts` iXBRL accounts and `accounts_pdf` readable accounts (accounts filings).",
  });
export type DocumentType = z.infer<typeof DocumentType>;

/** Which documents a filing of each type has once accepted. */
export const DOCUMENT_TYPES_BY_FILING_TYPE: Record<FilingType, readonly DocumentType[]> = {
  ct600: ["ct600_pdf", "ct600_xml"],
  accounts: ["ixbrl_accounts", "accounts_pdf"],
};

/** The media type each document is served with. */
export const DOCUMENT_MEDIA_TYPES: Record<DocumentType, string> = {
  ct600_pdf: "application/pdf",
  ct600_xml: "application/xml",
  ixbrl_accounts: "application/xhtml+xml",
  accounts_pdf: "application/pdf",
};

export const FilingDocument = z
  .object({
    type: DocumentType,
    name: z.string().meta({ description: "File name to save the document under." }),
    size_bytes: z.number().int().min(0),
    generated_at: DateTime,
  })
  .meta({ id: "FilingDocument" });
export type FilingDocument = z.infer<typeof FilingDocument>;

export const DocumentsList = z
  .object({ filing_id: z.string(), documents: z.array(FilingDocument) })
  .meta({ id: "DocumentsList", description: "The documents of an accepted filing." });
export type DocumentsList = z.infer<typeof DocumentsList>;

export const DocumentPathParams = z.object({
  filing_id: z.string().min(1).max(128),
  type: DocumentType,
});
export type DocumentPathParams = z.infer<typeof DocumentPathParams>;
