-- CreateEnum
CREATE TYPE "filing_type" AS ENUM ('ct600', 'accounts');

-- CreateEnum
CREATE TYPE "filing_status" AS ENUM ('pending', 'submitted', 'accepted', 'rejected', 'error');

-- CreateEnum
CREATE TYPE "submission_status" AS ENUM ('pending', 'submitted', 'polling', 'accepted', 'rejected', 'error');

-- CreateEnum
CREATE TYPE "document_type" AS ENUM ('ct600_pdf', 'ct600_xml', 'ixbrl_accounts', 'accounts_pdf');

-- CreateTable
CREATE TABLE "filings" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "request_fingerprint" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "filing_type" "filing_type" NOT NULL,
    "company_number" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "period_start" DATE NOT NULL,
    "period_end" DATE NOT NULL,
    "period_split" BOOLEAN NOT NULL,
    "status" "filing_status" NOT NULL,
    "fee_pence" INTEGER NOT NULL,
    "derived_values" JSONB NOT NULL,
    "registry_status" "submission_status",
    "registry_submission_number" TEXT,
    "registry_request" JSONB,
    "error_code" TEXT,
    "error_message" TEXT,
    "claim_token" TEXT,
    "claim_expires_at" TIMESTAMPTZ(3),
    "submitted_at" TIMESTAMPTZ(3),
    "finalized_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "filings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "filing_parts" (
    "filing_id" TEXT NOT NULL,
    "part_number" INTEGER NOT NULL,
    "period_start" DATE NOT NULL,
    "period_end" DATE NOT NULL,
    "tax_status" "submission_status" NOT NULL,
    "tax_correlation_id" TEXT,
    "tax_iru_number" TEXT,
    "irmark" TEXT,
    "submit_request" JSONB NOT NULL,
    "submitted_at" TIMESTAMPTZ(3),
    "error_code" TEXT,
    "error_message" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "filing_parts_pkey" PRIMARY KEY ("filing_id","part_number")
);

-- CreateTable
CREATE TABLE "status_history" (
    "id" BIGSERIAL NOT NULL,
    "filing_id" TEXT NOT NULL,
    "part_number" INTEGER,
    "field" TEXT NOT NULL,
    "from_status" TEXT,
    "to_status" TEXT NOT NULL,
    "cause" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "status_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" BIGSERIAL NOT NULL,
    "filing_id" TEXT NOT NULL,
    "type" "document_type" NOT NULL,
    "part_number" INTEGER,
    "media_type" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "generated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "message_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "request_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "published_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox" (
    "message_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "filing_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_pkey" PRIMARY KEY ("message_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "filings_registry_submission_number_key" ON "filings"("registry_submission_number");

-- CreateIndex
CREATE INDEX "filings_key_id_created_at_idx" ON "filings"("key_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "filings_status_created_at_idx" ON "filings"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "filings_key_id_idempotency_key_key" ON "filings"("key_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "status_history_filing_id_id_idx" ON "status_history"("filing_id", "id");

-- CreateIndex (NULLS NOT DISTINCT: one accounts document of each type too; not expressible in the Prisma schema)
CREATE UNIQUE INDEX "documents_filing_id_type_part_number_key" ON "documents"("filing_id", "type", "part_number") NULLS NOT DISTINCT;

-- CreateIndex
CREATE UNIQUE INDEX "outbox_message_id_key" ON "outbox"("message_id");

-- CreateIndex
CREATE INDEX "outbox_published_at_id_idx" ON "outbox"("published_at", "id");

-- AddForeignKey
ALTER TABLE "filing_parts" ADD CONSTRAINT "filing_parts_filing_id_fkey" FOREIGN KEY ("filing_id") REFERENCES "filings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_history" ADD CONSTRAINT "status_history_filing_id_fkey" FOREIGN KEY ("filing_id") REFERENCES "filings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_filing_id_fkey" FOREIGN KEY ("filing_id") REFERENCES "filings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Registry submission numbers: 6 base-36 characters, unique per presenter forever
-- (formatSubmissionNumber). A sequence never hands out a value twice, even after a rollback.
-- Not expressible in the Prisma schema.
CREATE SEQUENCE "registry_submission_number_seq" AS BIGINT MINVALUE 1 MAXVALUE 2176782335 NO CYCLE;
