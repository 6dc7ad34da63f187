-- The accounts a CT600 attaches (src/submit/accounts-for-ct600.ts, issue 11 item 8): the statement
-- that writes a pending CT600 looks up the accounts filing of the same account, company and period
-- end. This index serves that look-up as one range read whatever the size of the table; only
-- accounts filings are in it. A partial index is not expressible in the Prisma schema. A plain
-- CREATE INDEX (the migrator runs each migration in a transaction): it holds writes to filings while
-- it builds, which takes moments at this table's size.
CREATE INDEX "filings_accounts_for_ct600_idx" ON "filings" ("account_id", "company_number", "period_end") WHERE "filing_type" = 'accounts';
