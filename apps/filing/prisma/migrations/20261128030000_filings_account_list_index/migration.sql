-- filing.account_list (src/reads/filing-reads.ts, the account dashboard's Filings page): an
-- account's filings, whichever of its keys made them, newest first (created_at DESC, id DESC), a
-- page with the total. The key-scoped list reads filings_key_id_created_at_idx; without this index
-- the account-wide one scanned the whole table and sorted (about 130 ms with 200,000 other
-- filings; with it the page is a range read of the first rows, under 1 ms in the database). A
-- plain CREATE INDEX (each migration runs in a transaction): it holds writes to filings while it
-- builds, which takes moments at this table's size.
CREATE INDEX "filings_account_id_created_at_id_idx" ON "filings" ("account_id", "created_at" DESC, "id" DESC);
