-- Attempts in flight, shared by every notifier replica (delivery/attempt-slots.ts): one row per
-- HTTP attempt under way, so that concurrency is limited per endpoint, per account and mode, and
-- per destination host and mode across the whole deployment. A row outlives a dead worker only
-- until expires_at (the attempt time-out plus a margin).
CREATE TABLE "attempt_slots" (
  "delivery_id" TEXT NOT NULL,
  "endpoint_id" TEXT NOT NULL,
  "account_key" TEXT NOT NULL,
  "host_key" TEXT NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "attempt_slots_pkey" PRIMARY KEY ("delivery_id")
);
CREATE INDEX "attempt_slots_account_key_idx" ON "attempt_slots" ("account_key");
CREATE INDEX "attempt_slots_host_key_idx" ON "attempt_slots" ("host_key");
CREATE INDEX "attempt_slots_endpoint_id_idx" ON "attempt_slots" ("endpoint_id");
