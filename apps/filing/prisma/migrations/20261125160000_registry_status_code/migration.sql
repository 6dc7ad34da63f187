-- Accounts the registry holds undecided (GetSubmissionStatus answering PENDING or PARKED) can wait
-- days. The registry submitter reports each change of that status (`registry.status` on
-- filing.outcomes); the filing keeps the registry's code, since when, and the examiner's comment,
-- so GET /filings/{id} shows them while the filing is `submitted` (src/outcomes/registry-changes.ts).
-- No status changes with them: registry_status stays `submitted`. All three are null until the
-- registry first answers an undecided status, and on CT600 filings.
ALTER TABLE "filings" ADD COLUMN "registry_status_code" TEXT;
ALTER TABLE "filings" ADD COLUMN "registry_status_since" TIMESTAMPTZ(3);
ALTER TABLE "filings" ADD COLUMN "registry_examiner_comment" TEXT;
