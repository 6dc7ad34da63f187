-- The fee hold, its release and a filing outcome each in ONE statement (one round trip, no
-- explicit transaction): `SELECT * FROM billing_place_hold(...)` etc. run as a single implicit
-- transaction. They do what src/ledger/holds.ts and outcomes.ts did statement by statement before
-- (README "Statements per operation"), in the same lock order: the account row first
-- (SELECT ... FOR UPDATE), then the hold, then the entries. Each statement inside these VOLATILE
-- functions takes a fresh snapshot (READ COMMITTED), so what was read after the lock is what
-- concurrent transactions committed before it, exactly as before. The no-overdraw CHECKs, the
-- entry trigger, the shapes and the append-only triggers of the first migration are unchanged
-- and still refuse whatever these functions might get wrong.
--
-- Plain answers instead of exceptions for the business refusals (insufficient, conflict), so the
-- application builds its AppErrors; anything unexpected raises and rolls the whole call back.

-- Places the fee hold of a filing (billing.hold). Answers one row:
--   result 'created'      the hold is open now (new, or a released one opened again): hold_id, available after it
--   result 'existing'     the filing's hold was already open or captured: hold_id, available now (nothing more held)
--   result 'insufficient' not enough available (an unknown account has nothing): available now
--   result 'conflict'     the filing is held for another account or amount
-- A caller that stops waiting cancels the statement (src/db/sql.ts): nothing is held.
CREATE FUNCTION "billing_place_hold"(p_account_id TEXT, p_filing_id TEXT, p_amount_pence BIGINT, p_new_hold_id TEXT)
RETURNS TABLE ("result" TEXT, "hold_id" TEXT, "available_pence" BIGINT)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_balance BIGINT;
    v_held BIGINT;
    v_available BIGINT := 0;
    v_known BOOLEAN;
    v_hold "holds"%ROWTYPE;
BEGIN
    IF p_amount_pence <= 0 THEN
        RAISE EXCEPTION 'a hold must be for a positive amount' USING ERRCODE = 'check_violation';
    END IF;
    SELECT "balance_pence", "held_pence" INTO v_balance, v_held FROM "accounts" WHERE "id" = p_account_id FOR UPDATE;
    v_known := FOUND;
    IF v_known THEN v_available := v_balance - v_held; END IF;

    SELECT * INTO v_hold FROM "holds" WHERE "filing_id" = p_filing_id;
    IF FOUND THEN
        IF v_hold."account_id" <> p_account_id OR v_hold."amount_pence" <> p_amount_pence THEN
            RETURN QUERY SELECT 'conflict'::TEXT, v_hold."id", v_available;
            RETURN;
        END IF;
        IF v_hold."state" <> 'released' THEN
            RETURN QUERY SELECT 'existing'::TEXT, v_hold."id", v_available;
            RETURN;
        END IF;
    END IF;
    IF NOT v_known OR v_available < p_amount_pence THEN
        RETURN QUERY SELECT 'insufficient'::TEXT, NULL::TEXT, v_available;
        RETURN;
    END IF;

    IF v_hold."id" IS NOT NULL THEN
        -- Held again after a release. Under the account lock nothing else can move this hold.
        UPDATE "holds" SET "state" = 'open', "release_reason" = NULL, "updated_at" = CURRENT_TIMESTAMP
         WHERE "id" = v_hold."id" AND "state" = 'released';
        IF NOT FOUND THEN
            RAISE EXCEPTION 'hold of filing % changed concurrently; retry', p_filing_id USING ERRCODE = 'serialization_failure';
        END IF;
    ELSE
        INSERT INTO "holds" ("id", "filing_id", "account_id", "amount_pence")
        VALUES (p_new_hold_id, p_filing_id, p_account_id, p_amount_pence)
        ON CONFLICT ("filing_id") DO NOTHING
        RETURNING * INTO v_hold;
        IF NOT FOUND THEN
            -- Another transaction held this filing meanwhile; only one for another account can get
            -- here (holds of one account queue on its lock), and it has committed by now.
            SELECT * INTO v_hold FROM "holds" WHERE "filing_id" = p_filing_id;
            IF FOUND AND (v_hold."account_id" <> p_account_id OR v_hold."amount_pence" <> p_amount_pence) THEN
                RETURN QUERY SELECT 'conflict'::TEXT, v_hold."id", v_available;
                RETURN;
            END IF;
            RAISE EXCEPTION 'hold of filing % changed concurrently; retry', p_filing_id USING ERRCODE = 'serialization_failure';
        END IF;
    END IF;
    -- Its trigger raises the account's held amount; the account's CHECK refuses an overdraw.
    INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id")
    VALUES (p_account_id, 'hold', 0, p_amount_pence, p_filing_id);

    RETURN QUERY SELECT 'created'::TEXT, v_hold."id", v_available - p_amount_pence;
END;
$$;

-- Moves the open hold of a filing to captured or released and writes the matching entry.
-- Call with the hold's account locked. Answers whether the hold was open (only an open hold moves).
CREATE FUNCTION "billing_settle_open_hold"(p_filing_id TEXT, p_to "hold_state", p_reason TEXT)
RETURNS BOOLEAN
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_account_id TEXT;
    v_amount BIGINT;
BEGIN
    IF p_to NOT IN ('captured', 'released') THEN
        RAISE EXCEPTION 'a hold settles as captured or released, not %', p_to USING ERRCODE = 'check_violation';
    END IF;
    UPDATE "holds"
       SET "state" = p_to, "updated_at" = CURRENT_TIMESTAMP,
           "release_reason" = CASE WHEN p_to = 'released' THEN p_reason ELSE "release_reason" END
     WHERE "filing_id" = p_filing_id AND "state" = 'open'
    RETURNING "account_id", "amount_pence" INTO v_account_id, v_amount;
    IF NOT FOUND THEN
        RETURN FALSE;
    END IF;
    IF p_to = 'captured' THEN
        INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id", "note")
        VALUES (v_account_id, 'capture', -v_amount, -v_amount, p_filing_id, p_reason);
    ELSE
        INSERT INTO "ledger_entries" ("account_id", "kind", "balance_delta_pence", "held_delta_pence", "filing_id", "note")
        VALUES (v_account_id, 'release', 0, -v_amount, p_filing_id, p_reason);
    END IF;
    RETURN TRUE;
END;
$$;

-- Releases the open hold of a filing (billing.release). Answers whether one was released:
-- unknown, released or captured holds answer false and nothing changes.
CREATE FUNCTION "billing_release_hold"(p_filing_id TEXT, p_reason TEXT)
RETURNS BOOLEAN
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_account_id TEXT;
BEGIN
    SELECT "account_id" INTO v_account_id FROM "holds" WHERE "filing_id" = p_filing_id;
    IF NOT FOUND THEN
        RETURN FALSE;
    END IF;
    PERFORM 1 FROM "accounts" WHERE "id" = v_account_id FOR UPDATE;
    RETURN "billing_settle_open_hold"(p_filing_id, 'released', p_reason);
END;
$$;

-- Applies a filing's final outcome exactly once (filing.accepted / rejected / errored): lock the
-- hold's account, read the hold, record the outcome in the filing_outcomes inbox (skipped if this
-- filing's outcome is there already, whatever its message id), then capture or release the open
-- hold. Answers one row: duplicate (the inbox had it: nothing changed; effect is the first one's),
-- effect, and the hold as found (null when the filing was never held).
CREATE FUNCTION "billing_apply_filing_outcome"(
    p_filing_id TEXT, p_outcome "filing_outcome", p_account_id TEXT, p_message_id TEXT,
    p_fee_pence BIGINT, p_occurred_at TIMESTAMPTZ, p_reason TEXT)
RETURNS TABLE ("duplicate" BOOLEAN, "effect" "outcome_effect", "hold_account_id" TEXT, "hold_amount_pence" BIGINT)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_account_id TEXT;
    v_hold "holds"%ROWTYPE;
    v_effect "outcome_effect";
    v_first "outcome_effect";
BEGIN
    SELECT "account_id" INTO v_account_id FROM "holds" WHERE "filing_id" = p_filing_id;
    IF FOUND THEN
        PERFORM 1 FROM "accounts" WHERE "id" = v_account_id FOR UPDATE;
        -- Read again under the account lock: nothing can move the hold from here to the commit.
        SELECT * INTO v_hold FROM "holds" WHERE "filing_id" = p_filing_id;
    END IF;
    v_effect := CASE
        WHEN v_hold."state" IS DISTINCT FROM 'open' THEN 'no_open_hold'
        WHEN p_outcome = 'accepted' THEN 'captured'
        ELSE 'released' END;

    INSERT INTO "filing_outcomes" ("filing_id", "outcome", "account_id", "message_id", "fee_pence", "effect", "occurred_at")
    VALUES (p_filing_id, p_outcome, p_account_id, p_message_id,
            CASE WHEN p_outcome = 'accepted' THEN p_fee_pence END, v_effect, p_occurred_at)
    ON CONFLICT ("filing_id", "outcome") DO NOTHING;
    IF NOT FOUND THEN
        SELECT o."effect" INTO v_first FROM "filing_outcomes" o WHERE o."filing_id" = p_filing_id AND o."outcome" = p_outcome;
        RETURN QUERY SELECT TRUE, v_first, v_hold."account_id", v_hold."amount_pence";
        RETURN;
    END IF;
    IF v_effect <> 'no_open_hold' THEN
        IF NOT "billing_settle_open_hold"(p_filing_id, v_effect::TEXT::"hold_state", p_reason) THEN
            RAISE EXCEPTION 'hold of filing % changed concurrently; retry', p_filing_id USING ERRCODE = 'serialization_failure';
        END IF;
    END IF;
    RETURN QUERY SELECT FALSE, v_effect, v_hold."account_id", v_hold."amount_pence";
END;
$$;
