-- Issue 28: the payment provider's refunds and disputes debit the ledger (next migration,
-- 20261201090100_payment_reversals). This adds the ledger entry kind they write on its own: a new
-- enum value is usable only once the transaction that added it has committed, and each migration
-- runs in one transaction.
ALTER TYPE "ledger_entry_kind" ADD VALUE 'reversal';
