-- Reconcile against the filing service (src/ledger/filings-cross-check.ts): for each page of
-- final filings the filing service lists (filing.list_final, in the order finalized_at then
-- filing id), billing reads the acceptances it received in the same range of that order, which
-- its occurred_at (the filing's finalized_at, carried by the event) and filing id give. This index
-- serves that as one range read per page instead of a scan of every acceptance. The filing id is
-- compared byte by byte (COLLATE "C"), as the filing service orders it, whatever the database's
-- collation. Neither the partial index nor the column's collation is expressible in the Prisma
-- schema. A plain CREATE INDEX (the migrator runs each migration in a transaction): it holds
-- writes of filing outcomes while it builds, which takes moments at this table's size.
CREATE INDEX "filing_outcomes_accepted_occurred_at_idx" ON "filing_outcomes" ("occurred_at", "filing_id" COLLATE "C") WHERE "outcome" = 'accepted';
