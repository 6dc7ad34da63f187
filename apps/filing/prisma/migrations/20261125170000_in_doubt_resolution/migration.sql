-- Pending filings in doubt (src/sweeper/sweep-pending.ts): the sweeper asks the submitters what
-- became of a submission that was never acknowledged instead of ending the filing, and when the
-- answer is "cannot say yet" it leaves the filing pending until this instant, so that filings
-- waiting on an authority do not take the whole batch of every sweep. Not part of the filing's
-- state (no version bump): only when to ask again.
ALTER TABLE "filings" ADD COLUMN "resolve_after" TIMESTAMPTZ(3);
