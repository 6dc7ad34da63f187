-- Rendering the PDFs of accepted filings (src/documents/): what they are rendered from is kept
-- with the filing, since it cannot be derived again later.

-- The tax authority's receipt of a CT600 part (tax.part_outcome accepted): printed on its ct600_pdf.
ALTER TABLE "filing_parts" ADD COLUMN "tax_receipt_message" TEXT;
ALTER TABLE "filing_parts" ADD COLUMN "tax_accepted_at" TIMESTAMPTZ(3);

-- The facts the accounts' iXBRL was rendered from (DormantAccountsInput, amounts in pence), so
-- that the accounts_pdf shows exactly what was filed. Null for CT600 filings.
ALTER TABLE "filings" ADD COLUMN "accounts_input" JSONB;

-- Downloads read documents in slices (filing.get_document_chunk). Uncompressed out-of-line
-- storage lets PostgreSQL fetch only the TOAST chunks of a slice instead of decompressing the
-- whole value each time (PDFs are compressed already). Not expressible in the Prisma schema.
ALTER TABLE "documents" ALTER COLUMN "content" SET STORAGE EXTERNAL;
