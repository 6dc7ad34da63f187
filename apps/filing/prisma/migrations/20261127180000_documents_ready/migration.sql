-- filing.documents_ready (issue 14): published once per accepted filing, when all its PDFs are
-- stored, whoever stored the last of them (the documents consumer, or a read that rendered a
-- missing one). documents_ready_at records that the event was written (with it, in one statement).
ALTER TABLE "filings" ADD COLUMN "documents_ready_at" TIMESTAMPTZ(3);
