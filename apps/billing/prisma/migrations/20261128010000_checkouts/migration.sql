-- Top-up checkouts (billing.create_checkout, src/checkout): each checkout session billing asked
-- the payment provider for, with the account and amount it was for, so that the provider's
-- payment webhook naming the checkout is matched to them before anything is credited. A checkout
-- is paid at most once (the payment id of its credit, unique). Tables, columns and indexes match
-- prisma/schema.prisma; the CHECKs are what Prisma's schema language cannot express.

-- CreateEnum
CREATE TYPE "checkout_state" AS ENUM ('open', 'paid');

-- CreateTable
CREATE TABLE "checkouts" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount_pence" BIGINT NOT NULL,
    "state" "checkout_state" NOT NULL DEFAULT 'open',
    "payment_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMPTZ(3),

    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_payment_id_key" ON "checkouts"("payment_id");

-- CreateIndex
CREATE INDEX "checkouts_account_id_created_at_idx" ON "checkouts"("account_id", "created_at");

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- A positive amount; paid exactly when it carries its payment id and time.
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_amount_positive" CHECK ("amount_pence" > 0);
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_paid_shape" CHECK (
    ("state" = 'open' AND "payment_id" IS NULL AND "paid_at" IS NULL)
    OR ("state" = 'paid' AND "payment_id" IS NOT NULL AND "paid_at" IS NOT NULL)
);
