-- Refunds and disputes (issue 28): money the payment provider takes back from a payment billing
-- credited. Each one is a `payment_reversals` row (unique per kind and provider id: the refund's
-- or the dispute's id, so a redelivered notification changes nothing) and its `reversal` entry,
-- balance -X / held 0, written in one transaction with the account row locked first (as every
-- money move). README "Refunds and disputes".
--
-- What holds:
--   - a reversal is for a top-up (the payment it takes money back from), of a positive amount;
--     the reversals of one top-up never add up to more than it (checked under the account lock by
--     src/ledger/reversals.ts; reconcile reports it otherwise);
--   - a reversal entry references its reversal and nothing else; the other kinds never reference
--     one;
--   - no overdraw, except here: the money has left the platform whatever the balance, so a
--     reversal may take the available amount (balance - held) below zero, like a late charge.
--     While it is negative the entry trigger refuses every hold (the place-hold function already
--     answers "insufficient"), so the account files nothing until a top-up covers the debt;
--   - payment_reversals are append-only, like top_ups.
-- The ledger stays append-only, in integer pence, with the totals derived from the entries.

CREATE TYPE "reversal_kind" AS ENUM ('refund', 'dispute');

CREATE TABLE "payment_reversals" (
    "id" TEXT NOT NULL,
    "kind" "reversal_kind" NOT NULL,
    "provider_id" TEXT NOT NULL,
    "top_up_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount_pence" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "payment_reversals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payment_reversals_amount_positive" CHECK ("amount_pence" > 0),
    CONSTRAINT "payment_reversals_provider_id_shape" CHECK ("provider_id" ~ '^[A-Za-z0-9_.:-]{1,100}$'),
    CONSTRAINT "payment_reversals_top_up_id_fkey" FOREIGN KEY ("top_up_id") REFERENCES "top_ups"("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "payment_reversals_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE UNIQUE INDEX "payment_reversals_kind_provider_id_key" ON "payment_reversals"("kind", "provider_id");
CREATE INDEX "payment_reversals_top_up_id_idx" ON "payment_reversals"("top_up_id");

CREATE TRIGGER "payment_reversals_append_only" BEFORE UPDATE OR DELETE ON "payment_reversals"
    FOR EACH ROW EXECUTE FUNCTION "billing_refuse_change"();
CREATE TRIGGER "payment_reversals_no_truncate" BEFORE TRUNCATE ON "payment_reversals"
    FOR EACH STATEMENT EXECUTE FUNCTION "billing_refuse_change"();

ALTER TABLE "ledger_entries" ADD COLUMN "reversal_id" TEXT;
CREATE UNIQUE INDEX "ledger_entries_reversal_id_key" ON "ledger_entries"("reversal_id");
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_reversal_id_fkey"
    FOREIGN KEY ("reversal_id") REFERENCES "payment_reversals"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_shape";
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_shape" CHECK (
    ("kind" = 'credit'  AND "balance_delta_pence" > 0 AND "held_delta_pence" = 0
        AND "top_up_id" IS NOT NULL AND "filing_id" IS NULL AND "reversal_id" IS NULL)
 OR ("kind" = 'hold'    AND "balance_delta_pence" = 0 AND "held_delta_pence" > 0
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL AND "reversal_id" IS NULL)
 OR ("kind" = 'capture' AND "balance_delta_pence" < 0
        AND ("held_delta_pence" = "balance_delta_pence" OR "held_delta_pence" = 0)
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL AND "reversal_id" IS NULL)
 OR ("kind" = 'release' AND "balance_delta_pence" = 0 AND "held_delta_pence" < 0
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL AND "reversal_id" IS NULL)
 OR ("kind" = 'reversal' AND "balance_delta_pence" < 0 AND "held_delta_pence" = 0
        AND "reversal_id" IS NOT NULL AND "top_up_id" IS NULL AND "filing_id" IS NULL)
);

-- No overdraw, per entry: an entry that lowers the available amount must leave it >= 0, except a
-- late capture (migration 20261125160000) and now a reversal (the provider has taken the money).
CREATE OR REPLACE FUNCTION "billing_apply_ledger_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_balance BIGINT;
    v_held BIGINT;
BEGIN
    UPDATE "accounts"
       SET "balance_pence" = "balance_pence" + NEW."balance_delta_pence",
           "held_pence" = "held_pence" + NEW."held_delta_pence",
           "updated_at" = CURRENT_TIMESTAMP
     WHERE "id" = NEW."account_id"
    RETURNING "balance_pence", "held_pence" INTO v_balance, v_held;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ledger entry for unknown account %', NEW."account_id" USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW."balance_delta_pence" - NEW."held_delta_pence" < 0 AND v_balance - v_held < 0
       AND NOT (NEW."kind" = 'capture' AND NEW."held_delta_pence" = 0)
       AND NEW."kind" <> 'reversal' THEN
        RAISE EXCEPTION 'new row for relation "accounts" violates check constraint "accounts_no_overdraw": % entry would leave % with % available',
            NEW."kind", NEW."account_id", v_balance - v_held
            USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_no_overdraw', TABLE = 'accounts';
    END IF;
    RETURN NEW;
END;
$$;
