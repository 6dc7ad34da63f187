-- The webhook id an event is sent with (the `webhook-id` header, the body's `id`) is unique per
-- account and mode, not globally: the gateway derives a sandbox event's id from the sandbox filing
-- id, which two accounts can share (same Idempotency-Key and body). `events.id` stays the internal
-- key deliveries refer to (equal to webhook_id except for sandbox events, see intake.ts).
ALTER TABLE "events" ADD COLUMN "webhook_id" TEXT;
UPDATE "events" SET "webhook_id" = "id";
ALTER TABLE "events" ALTER COLUMN "webhook_id" SET NOT NULL;
CREATE UNIQUE INDEX "events_account_id_mode_webhook_id_key" ON "events" ("account_id", "mode", "webhook_id");
