-- Billing: accounts, an append-only ledger in integer pence, fee holds, top-ups and the inbox of
-- filing outcomes. Tables, columns and indexes match prisma/schema.prisma; the constraints and
-- triggers after them are what Prisma's schema language cannot express (README "Ledger model").

-- CreateEnum
CREATE TYPE "ledger_entry_kind" AS ENUM ('credit', 'hold', 'capture', 'release');

-- CreateEnum
CREATE TYPE "hold_state" AS ENUM ('open', 'captured', 'released');

-- CreateEnum
CREATE TYPE "top_up_source" AS ENUM ('opening', 'webhook', 'admin');

-- CreateEnum
CREATE TYPE "filing_outcome" AS ENUM ('accepted', 'rejected', 'errored');

-- CreateEnum
CREATE TYPE "outcome_effect" AS ENUM ('captured', 'released', 'no_open_hold');

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "balance_pence" BIGINT NOT NULL DEFAULT 0,
    "held_pence" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "top_ups" (
    "id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount_pence" BIGINT NOT NULL,
    "source" "top_up_source" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "top_ups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "holds" (
    "id" TEXT NOT NULL,
    "filing_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount_pence" BIGINT NOT NULL,
    "state" "hold_state" NOT NULL DEFAULT 'open',
    "release_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "holds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "kind" "ledger_entry_kind" NOT NULL,
    "balance_delta_pence" BIGINT NOT NULL,
    "held_delta_pence" BIGINT NOT NULL,
    "top_up_id" TEXT,
    "filing_id" TEXT,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "filing_outcomes" (
    "filing_id" TEXT NOT NULL,
    "outcome" "filing_outcome" NOT NULL,
    "account_id" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "fee_pence" BIGINT,
    "effect" "outcome_effect" NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "filing_outcomes_pkey" PRIMARY KEY ("filing_id","outcome")
);

-- CreateIndex
CREATE UNIQUE INDEX "top_ups_payment_id_key" ON "top_ups"("payment_id");

-- CreateIndex
CREATE INDEX "top_ups_account_id_idx" ON "top_ups"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "holds_filing_id_key" ON "holds"("filing_id");

-- CreateIndex
CREATE INDEX "holds_account_id_state_idx" ON "holds"("account_id", "state");

-- CreateIndex
CREATE INDEX "holds_state_created_at_idx" ON "holds"("state", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_top_up_id_key" ON "ledger_entries"("top_up_id");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_id_idx" ON "ledger_entries"("account_id", "id");

-- CreateIndex
CREATE INDEX "ledger_entries_filing_id_idx" ON "ledger_entries"("filing_id");

-- CreateIndex
CREATE INDEX "filing_outcomes_outcome_idx" ON "filing_outcomes"("outcome");

-- AddForeignKey
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "holds" ADD CONSTRAINT "holds_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_top_up_id_fkey" FOREIGN KEY ("top_up_id") REFERENCES "top_ups"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_filing_id_fkey" FOREIGN KEY ("filing_id") REFERENCES "holds"("filing_id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- ---------------------------------------------------------------------------------------------
-- Beyond the Prisma schema: the rules that make money impossible to lose, double-charge or
-- overdraw at the database level, whatever the application does.
-- ---------------------------------------------------------------------------------------------

-- No overdraw: the available balance (balance minus open holds) never goes below zero, and
-- neither does the amount held.
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_held_not_negative" CHECK ("held_pence" >= 0);
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_no_overdraw" CHECK ("balance_pence" - "held_pence" >= 0);

-- Amounts are positive.
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_amount_positive" CHECK ("amount_pence" > 0);
ALTER TABLE "holds" ADD CONSTRAINT "holds_amount_positive" CHECK ("amount_pence" > 0);
ALTER TABLE "filing_outcomes" ADD CONSTRAINT "filing_outcomes_fee_positive" CHECK ("fee_pence" IS NULL OR "fee_pence" > 0);

-- Every entry kind has one shape, and says why: credits name their top-up, the others their filing.
--   credit  +X /  0     hold  0 / +X     capture  -X / -X     release  0 / -X
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_shape" CHECK (
    ("kind" = 'credit'  AND "balance_delta_pence" > 0 AND "held_delta_pence" = 0
        AND "top_up_id" IS NOT NULL AND "filing_id" IS NULL)
 OR ("kind" = 'hold'    AND "balance_delta_pence" = 0 AND "held_delta_pence" > 0
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL)
 OR ("kind" = 'capture' AND "balance_delta_pence" < 0 AND "held_delta_pence" = "balance_delta_pence"
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL)
 OR ("kind" = 'release' AND "balance_delta_pence" = 0 AND "held_delta_pence" < 0
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL)
);

-- Exactly-once charging: at most one capture per filing, ever.
CREATE UNIQUE INDEX "ledger_entries_one_capture_per_filing" ON "ledger_entries"("filing_id") WHERE "kind" = 'capture';

-- The running totals on accounts are derived from the entries: every entry insert moves them by
-- its deltas in the same statement (so the CHECKs above refuse an entry that would overdraw).
CREATE FUNCTION "billing_apply_ledger_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "accounts"
       SET "balance_pence" = "balance_pence" + NEW."balance_delta_pence",
           "held_pence" = "held_pence" + NEW."held_delta_pence",
           "updated_at" = CURRENT_TIMESTAMP
     WHERE "id" = NEW."account_id";
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ledger entry for unknown account %', NEW."account_id" USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "ledger_entries_apply" AFTER INSERT ON "ledger_entries"
    FOR EACH ROW EXECUTE FUNCTION "billing_apply_ledger_entry"();

-- Append-only records: the ledger, the top-ups and the outcomes applied are never changed or
-- removed (a correction is a new entry).
CREATE FUNCTION "billing_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
    FOR EACH ROW EXECUTE FUNCTION "billing_refuse_change"();
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries"
    FOR EACH STATEMENT EXECUTE FUNCTION "billing_refuse_change"();

CREATE TRIGGER "top_ups_append_only" BEFORE UPDATE OR DELETE ON "top_ups"
    FOR EACH ROW EXECUTE FUNCTION "billing_refuse_change"();
CREATE TRIGGER "top_ups_no_truncate" BEFORE TRUNCATE ON "top_ups"
    FOR EACH STATEMENT EXECUTE FUNCTION "billing_refuse_change"();

CREATE TRIGGER "filing_outcomes_append_only" BEFORE UPDATE OR DELETE ON "filing_outcomes"
    FOR EACH ROW EXECUTE FUNCTION "billing_refuse_change"();
CREATE TRIGGER "filing_outcomes_no_truncate" BEFORE TRUNCATE ON "filing_outcomes"
    FOR EACH STATEMENT EXECUTE FUNCTION "billing_refuse_change"();

-- Holds move only along open -> captured, open -> released, released -> open (held again after a
-- release); a captured hold is final. What a hold is for (filing, account, amount) never changes
-- and holds are never deleted.
CREATE FUNCTION "billing_guard_hold"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'holds are never deleted' USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW."id" <> OLD."id" OR NEW."filing_id" <> OLD."filing_id" OR NEW."account_id" <> OLD."account_id"
       OR NEW."amount_pence" <> OLD."amount_pence" OR NEW."created_at" <> OLD."created_at" THEN
        RAISE EXCEPTION 'hold % of filing %: only its state may change', OLD."id", OLD."filing_id" USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW."state" <> OLD."state" AND NOT (
           (OLD."state" = 'open' AND NEW."state" IN ('captured', 'released'))
        OR (OLD."state" = 'released' AND NEW."state" = 'open')) THEN
        RAISE EXCEPTION 'hold of filing %: % -> % refused', OLD."filing_id", OLD."state", NEW."state" USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "holds_guard" BEFORE UPDATE OR DELETE ON "holds"
    FOR EACH ROW EXECUTE FUNCTION "billing_guard_hold"();
CREATE TRIGGER "holds_no_truncate" BEFORE TRUNCATE ON "holds"
    FOR EACH STATEMENT EXECUTE FUNCTION "billing_refuse_change"();
