-- A checkout's account and amount are what the payment webhook is matched against
-- (src/checkout/checkout-payments.ts), and a paid checkout records the payment that paid it: the
-- database refuses to change either after the fact. The only change allowed is open -> paid
-- (with its payment id and time, CHECK "checkouts_paid_shape"); checkouts are never deleted.
CREATE FUNCTION "billing_guard_checkout"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'checkouts are never deleted' USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW."id" IS DISTINCT FROM OLD."id" OR NEW."account_id" IS DISTINCT FROM OLD."account_id"
        OR NEW."amount_pence" IS DISTINCT FROM OLD."amount_pence" OR NEW."created_at" IS DISTINCT FROM OLD."created_at" THEN
        RAISE EXCEPTION 'a checkout''s account and amount are never changed' USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD."state" <> 'open' THEN
        RAISE EXCEPTION 'a paid checkout is never changed' USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "checkouts_guard" BEFORE UPDATE OR DELETE ON "checkouts"
    FOR EACH ROW EXECUTE FUNCTION "billing_guard_checkout"();
CREATE TRIGGER "checkouts_no_truncate" BEFORE TRUNCATE ON "checkouts"
    FOR EACH STATEMENT EXECUTE FUNCTION "billing_refuse_change"();
