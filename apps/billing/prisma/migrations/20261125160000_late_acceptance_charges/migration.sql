-- A late acceptance (issue 11, item 10): the filing service may end a filing `error` (billing
-- releases its hold on filing.errored) and later learn that the authority accepted it after all;
-- it then publishes filing.accepted for the same filing, with `corrects: "error"`. The service was
-- rendered, so billing charges the fee, exactly once, even when the account's available amount
-- can no longer cover it: the balance may go negative for this case only (a debt the next top-up
-- covers; nothing new can be held meanwhile). README "Late acceptances".
--
-- What changes, and what still holds:
--   - a `capture` entry may also be balance -X / held 0: the charge of a hold already released
--     (its hold entry was undone by a release, so there is nothing held to take it from);
--     the unique index ledger_entries_one_capture_per_filing still allows ONE capture per filing,
--     late or not;
--   - holds may move released -> captured (a late charge); captured stays final;
--   - no overdraw: the CHECK (balance - held >= 0) on accounts becomes a rule of the entry
--     trigger, which knows the entry: an entry that lowers the available amount (a hold, or a late
--     capture) must leave it >= 0, except a late capture. Credits, releases and ordinary captures
--     never lower it. So an account goes negative only by a late charge, and while it is negative
--     no hold can be placed;
--   - the inbox remembers what an acceptance corrects (`corrects`), and a late charge has its own
--     effect (`captured_late`), for reconcile, logs and metrics;
--   - billing_apply_filing_outcome takes what the event corrects, and charges a released hold on
--     an acceptance unless billing received a rejection for the filing (a rejected filing never
--     becomes accepted: that stays uncharged and a reconcile problem).
-- The ledger stays append-only, in integer pence, with the totals derived from the entries.

-- New enum values are usable once this migration's transaction commits; the function bodies
-- below name 'captured_late' only when they run.
ALTER TYPE "outcome_effect" ADD VALUE 'captured_late';

ALTER TABLE "filing_outcomes" ADD COLUMN "corrects" TEXT;
ALTER TABLE "filing_outcomes" ADD CONSTRAINT "filing_outcomes_corrects" CHECK (
    "corrects" IS NULL OR ("corrects" = 'error' AND "outcome" = 'accepted')
);

ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_shape";
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_shape" CHECK (
    ("kind" = 'credit'  AND "balance_delta_pence" > 0 AND "held_delta_pence" = 0
        AND "top_up_id" IS NOT NULL AND "filing_id" IS NULL)
 OR ("kind" = 'hold'    AND "balance_delta_pence" = 0 AND "held_delta_pence" > 0
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL)
 OR ("kind" = 'capture' AND "balance_delta_pence" < 0
        AND ("held_delta_pence" = "balance_delta_pence" OR "held_delta_pence" = 0)
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL)
 OR ("kind" = 'release' AND "balance_delta_pence" = 0 AND "held_delta_pence" < 0
        AND "filing_id" IS NOT NULL AND "top_up_id" IS NULL)
);

-- No overdraw, now per entry (see above). The trigger still moves the totals in the same statement.
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_no_overdraw";

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
       AND NOT (NEW."kind" = 'capture' AND NEW."held_delta_pence" = 0) THEN
        RAISE EXCEPTION 'new row for relation "accounts" violates check constraint "accounts_no_overdraw": % entry would leave % with % available',
            NEW."kind", NEW."account_id", v_balance - v_held
            USING ERRCODE = 'check_violation', CONSTRAINT = 'accounts_no_overdraw', TABLE = 'accounts';
    END IF;
    RETURN NEW;
END;
$$;

-- Holds move along open -> captured, open -> released, released -> open (held again after a
-- release) and now released -> captured (a late acceptance charged); a captured hold is final.
CREATE OR REPLACE FUNCTION "billing_guard_hold"() RETURNS trigger LANGUAGE plpgsql AS $$
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
        OR (OLD."state" = 'released' AND NEW."state" IN ('open', 'captured'))) THEN
        RAISE EXCEPTION 'hold of filing %: % -> % refused', OLD."filing_id", OLD."state", NEW."state" USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

-- Charges the released hold of a filing accepted late: the hold becomes captured and a capture
-- entry of balance -X / held 0 is written (nothing is held any more). Call with the hold's account
-- locked. Answers whether the hold was released (only a released hold is charged this way).
CREATE FUNCTION "billing_charge_released_hold"(p_filing_id TEXT, p_note TEXT)
RETURNS BOOLEAN
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_account_id TEXT;
    v_amount BIGINT;
BEGIN
    UPDATE "holds" SET "state" = 'captured', "updated_at" = CURRENT_TIMESTAMP
     WHERE "filing_id" = p_filing_id AND "state" = 'released'
    RETURNING "account_id", "amount_pence" INTO v_account_id, v_amount;
    IF NOT FOUND THEN
        RETURN FALSE;
    END IF;
    INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id", "note")
    VALUES (v_account_id, 'capture', -v_amount, 0, p_filing_id, p_note);
    RETURN TRUE;
END;
$$;

-- Applies a filing's outcome exactly once (filing.accepted / rejected / errored), as before: lock
-- the hold's account, read the hold, record the outcome in the inbox (skipped if this filing's
-- outcome is there already, whatever its message id), then move the hold. What is new:
--   - an acceptance finding the hold RELEASED charges it (effect 'captured_late'), unless billing
--     received a rejection for the filing (then 'no_open_hold', as any acceptance without an open
--     hold: nothing charged, reconcile reports it);
--   - what the acceptance corrects is recorded (p_corrects, 'error' or null);
--   - the answer adds the account's available amount after the statement (negative after a late
--     charge the account could not cover).
-- An errored or rejected outcome arriving after the acceptance (out of order) finds the hold
-- captured: 'no_open_hold', nothing released or refunded.
DROP FUNCTION "billing_apply_filing_outcome"(TEXT, "filing_outcome", TEXT, TEXT, BIGINT, TIMESTAMPTZ, TEXT);

CREATE FUNCTION "billing_apply_filing_outcome"(
    p_filing_id TEXT, p_outcome "filing_outcome", p_account_id TEXT, p_message_id TEXT,
    p_fee_pence BIGINT, p_occurred_at TIMESTAMPTZ, p_reason TEXT, p_corrects TEXT)
RETURNS TABLE ("duplicate" BOOLEAN, "effect" "outcome_effect", "hold_account_id" TEXT, "hold_amount_pence" BIGINT, "available_pence" BIGINT)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_account_id TEXT;
    v_hold "holds"%ROWTYPE;
    v_effect "outcome_effect";
    v_first "outcome_effect";
    v_available BIGINT;
BEGIN
    SELECT "account_id" INTO v_account_id FROM "holds" WHERE "filing_id" = p_filing_id;
    IF FOUND THEN
        PERFORM 1 FROM "accounts" WHERE "id" = v_account_id FOR UPDATE;
        -- Read again under the account lock: nothing can move the hold from here to the commit.
        SELECT * INTO v_hold FROM "holds" WHERE "filing_id" = p_filing_id;
    END IF;
    v_effect := CASE
        WHEN v_hold."state" = 'open' AND p_outcome = 'accepted' THEN 'captured'
        WHEN v_hold."state" = 'open' THEN 'released'
        WHEN v_hold."state" = 'released' AND p_outcome = 'accepted'
             AND NOT EXISTS (SELECT 1 FROM "filing_outcomes" o WHERE o."filing_id" = p_filing_id AND o."outcome" = 'rejected')
             THEN 'captured_late'
        ELSE 'no_open_hold' END;

    INSERT INTO "filing_outcomes" ("filing_id", "outcome", "account_id", "message_id", "fee_pence", "effect", "occurred_at", "corrects")
    VALUES (p_filing_id, p_outcome, p_account_id, p_message_id,
            CASE WHEN p_outcome = 'accepted' THEN p_fee_pence END, v_effect, p_occurred_at,
            CASE WHEN p_outcome = 'accepted' THEN p_corrects END)
    ON CONFLICT ("filing_id", "outcome") DO NOTHING;
    IF NOT FOUND THEN
        SELECT o."effect" INTO v_first FROM "filing_outcomes" o WHERE o."filing_id" = p_filing_id AND o."outcome" = p_outcome;
        SELECT a."balance_pence" - a."held_pence" INTO v_available FROM "accounts" a WHERE a."id" = v_hold."account_id";
        RETURN QUERY SELECT TRUE, v_first, v_hold."account_id", v_hold."amount_pence", v_available;
        RETURN;
    END IF;
    IF v_effect IN ('captured', 'released') THEN
        IF NOT "billing_settle_open_hold"(p_filing_id, v_effect::TEXT::"hold_state", p_reason) THEN
            RAISE EXCEPTION 'hold of filing % changed concurrently; retry', p_filing_id USING ERRCODE = 'serialization_failure';
        END IF;
    ELSIF v_effect = 'captured_late' THEN
        IF NOT "billing_charge_released_hold"(p_filing_id, p_reason || ' after its hold was released') THEN
            RAISE EXCEPTION 'hold of filing % changed concurrently; retry', p_filing_id USING ERRCODE = 'serialization_failure';
        END IF;
    END IF;
    SELECT a."balance_pence" - a."held_pence" INTO v_available FROM "accounts" a WHERE a."id" = v_hold."account_id";
    RETURN QUERY SELECT FALSE, v_effect, v_hold."account_id", v_hold."amount_pence", v_available;
END;
$$;
