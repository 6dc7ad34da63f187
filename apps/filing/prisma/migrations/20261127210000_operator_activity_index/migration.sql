-- The operator's view (src/reads/filing-activity.ts: `admin filing-activity`, and through it
-- `admin status`) counts the filings submitted in the last 5 and 60 minutes: a range read of this
-- partial index. Only filings every submission of which the authority acknowledged have a
-- submitted_at. The finalized counts read filings_finalized_at_id_idx; the oldest unfinished
-- filing reads filings_status_created_at_idx. A plain CREATE INDEX (each migration runs in a
-- transaction): it holds writes to filings while it builds, which takes moments at this size.
CREATE INDEX "filings_submitted_at_idx" ON "filings" ("submitted_at") WHERE "submitted_at" IS NOT NULL;
