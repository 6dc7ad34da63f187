-- A late acceptance must always be recorded. A filing that ended `error` left the live-filing
-- index, so its account may already have filed the same type, company and period end again;
-- when the authority's acceptance of the first one then arrives (a late acceptance, error ->
-- accepted), the index refused the change and the outcome could not be applied. Both filings
-- were taken in by the authority: that is the truth to show, not a duplicate to prevent.
--
-- accepted_late marks a filing accepted after it had ended in error; such a filing stays out of
-- the index (the refiling, if any, holds the place). New submits are still refused while any
-- other live filing exists.
ALTER TABLE "filings" ADD COLUMN "accepted_late" BOOLEAN NOT NULL DEFAULT false;

DROP INDEX "filings_live_filing_key";
CREATE UNIQUE INDEX "filings_live_filing_key" ON "filings" ("account_id", "filing_type", "company_number", "period_end")
  WHERE "status" IN ('pending', 'submitted', 'accepted') AND NOT "accepted_late";
