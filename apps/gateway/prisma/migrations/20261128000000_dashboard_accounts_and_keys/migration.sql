-- The account dashboard (gateway.rpc): API access is switched on by the account's owner, sign-ups
-- are idempotent per request id, keys have names and a last-used time.

-- AlterTable: every account so far was made by `admin create-account` with its keys, so it has
-- API access; gateway.create_account inserts false.
ALTER TABLE "accounts" ADD COLUMN "api_access_enabled" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "accounts" ADD COLUMN "creation_request_id" TEXT;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "name" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_creation_request_id_key" ON "accounts"("creation_request_id");
