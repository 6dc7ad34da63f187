-- Issue 13 items 3 and 4.
--
-- client_reference: the caller's own reference for a filing (at most 100 characters, validated by
-- the contract), stored as given; GET /filings filters on it per key (exact match).
ALTER TABLE "filings" ADD COLUMN "client_reference" TEXT;
CREATE INDEX "filings_key_id_client_reference_idx" ON "filings" ("key_id", "client_reference") WHERE "client_reference" IS NOT NULL;

-- No duplicate filings: at most one live (pending, submitted or accepted) filing per account,
-- filing type, company and period end (the submitted period_end: a split CT600 is one filing).
-- The database decides, so it holds under concurrency and across replicas; the statement that
-- writes a pending filing maps a violation to 409 FILING_EXISTS (src/submit/pending-filing.ts).
-- A filing that ended rejected or error leaves the index, so filing again is allowed. A partial
-- index is not expressible in the Prisma schema. Plain CREATE (the migrator runs each migration in
-- a transaction). Fails if duplicate live filings exist already: they must be settled by hand first.
CREATE UNIQUE INDEX "filings_live_filing_key" ON "filings" ("account_id", "filing_type", "company_number", "period_end")
  WHERE "status" IN ('pending', 'submitted', 'accepted');
