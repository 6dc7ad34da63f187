-- filing.list_final (src/reads/final-filings.ts): billing's reconcile walks the final filings of a
-- time window in the order (finalized_at, id), a page at a time after the last position seen. This
-- index serves each page as one range read. Only final filings have a finalized_at, so pending
-- and submitted ones are left out of it. The id is compared byte by byte (COLLATE "C"), whatever
-- the database's collation, so that the order is the same one billing compares with (ids are
-- ASCII). Neither the partial index nor the column's collation is expressible in the Prisma schema.
-- A plain CREATE INDEX (the migrator runs each migration in a transaction): it holds writes to
-- filings while it builds, which takes moments at this table's size.
CREATE INDEX "filings_finalized_at_id_idx" ON "filings" ("finalized_at", "id" COLLATE "C") WHERE "finalized_at" IS NOT NULL;
