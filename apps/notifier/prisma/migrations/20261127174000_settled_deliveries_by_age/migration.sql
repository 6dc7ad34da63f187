-- Retention: settled deliveries (delivered, failed, cancelled) by age, for the purge of rows older
-- than WEBHOOK_RETENTION_SECONDS (delivery/retention.ts).
CREATE INDEX "deliveries_settled_updated_at_idx" ON "deliveries" ("updated_at") WHERE "state" <> 'pending';
