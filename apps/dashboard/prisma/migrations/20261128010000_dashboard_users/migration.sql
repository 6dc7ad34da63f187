-- The dashboard's users and their one-time password-setup tokens (prisma/schema.prisma).
CREATE TABLE "users" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "email" TEXT NOT NULL,
  "password_hash" TEXT,
  "account_id" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "users_email_normalised_check" CHECK ("email" = lower(btrim("email")) AND length("email") BETWEEN 3 AND 254),
  CONSTRAINT "users_account_id_check" CHECK ("account_id" ~ '^acc_[A-Za-z0-9]{1,64}$')
);
CREATE UNIQUE INDEX "users_email_key" ON "users" ("email");
CREATE INDEX "users_account_id_idx" ON "users" ("account_id");

CREATE TABLE "password_setup_tokens" (
  "token_hash" TEXT NOT NULL PRIMARY KEY,
  "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE RESTRICT,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "used_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "password_setup_tokens_hash_check" CHECK ("token_hash" ~ '^[0-9a-f]{64}$')
);
CREATE INDEX "password_setup_tokens_user_id_idx" ON "password_setup_tokens" ("user_id");
