-- Fewer database round trips per filing (README "Database round trips"): every change of a filing
-- is one statement that checks the filing's version instead of a transaction that locks it, and
-- the outbox relay claims its batch for a while instead of holding a transaction open while it
-- publishes.

-- Bumped by every UPDATE of a filing (its status, a submission's status, its claim, ...); a
-- change computed from a read applies only if the version is still the one that was read.
ALTER TABLE "filings" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;

-- A relay working on an outbox row holds it until claimed_until; a row whose claim lapsed (its
-- relay died before marking it) is taken again.
ALTER TABLE "outbox" ADD COLUMN "claimed_until" TIMESTAMPTZ(3);

-- A registry submission number (formatSubmissionNumber in @dormant/govtalk: the sequence value in
-- base 36, upper case, six characters), so that the pending filing is written with its number in
-- one statement. The sequence's MAXVALUE (36^6 - 1) keeps it within six characters. Not
-- expressible in the Prisma schema.
CREATE FUNCTION "format_submission_number"(n BIGINT) RETURNS TEXT
LANGUAGE SQL IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', ((n / (36::BIGINT ^ p)::BIGINT) % 36)::INT + 1, 1), '' ORDER BY p DESC)
  FROM generate_series(0, 5) AS p
$$;
