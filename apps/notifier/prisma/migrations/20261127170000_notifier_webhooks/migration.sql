-- The notifier's database: webhook endpoints, events, deliveries and their attempts (issue 14).

CREATE TABLE "endpoints" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[] NOT NULL,
    "description" TEXT,
    "secret_sealed" JSONB NOT NULL,
    "previous_secret_sealed" JSONB,
    "previous_until" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    CONSTRAINT "endpoints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "endpoints_mode_check" CHECK ("mode" IN ('live', 'test')),
    CONSTRAINT "endpoints_status_check" CHECK ("status" IN ('enabled', 'disabled')),
    CONSTRAINT "endpoints_events_check" CHECK (cardinality("events") >= 1)
);

-- An account's endpoints in one mode, newest first (list), and the intake's lookup.
CREATE INDEX "endpoints_account_id_mode_created_at_id_idx" ON "endpoints" ("account_id", "mode", "created_at" DESC, "id" DESC);

CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "events_mode_check" CHECK ("mode" IN ('live', 'test'))
);

CREATE TABLE "deliveries" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "first_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "deliveries_state_check" CHECK ("state" IN ('pending', 'delivered', 'failed', 'cancelled')),
    CONSTRAINT "deliveries_attempts_check" CHECK ("attempts" >= 0),
    CONSTRAINT "deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints" ("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);

CREATE UNIQUE INDEX "deliveries_event_id_endpoint_id_key" ON "deliveries" ("event_id", "endpoint_id");
CREATE INDEX "deliveries_endpoint_id_idx" ON "deliveries" ("endpoint_id");
-- The sweeper (overdue pending deliveries) and the backlog gauge (the most overdue one).
CREATE INDEX "deliveries_pending_next_attempt_at_idx" ON "deliveries" ("next_attempt_at") WHERE "state" = 'pending';

CREATE TABLE "attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "response_body" TEXT,
    "next_retry_at" TIMESTAMPTZ(3),
    CONSTRAINT "attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "attempts_outcome_check" CHECK ("outcome" IN ('delivered', 'failed')),
    CONSTRAINT "attempts_attempt_check" CHECK ("attempt" >= 1),
    CONSTRAINT "attempts_duration_check" CHECK ("duration_ms" >= 0),
    CONSTRAINT "attempts_response_body_check" CHECK (octet_length("response_body") <= 1024),
    CONSTRAINT "attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "deliveries" ("id") ON DELETE RESTRICT ON UPDATE RESTRICT
);

CREATE UNIQUE INDEX "attempts_delivery_id_attempt_key" ON "attempts" ("delivery_id", "attempt");
-- An endpoint's attempts, newest first (list_deliveries).
CREATE INDEX "attempts_endpoint_id_attempted_at_id_idx" ON "attempts" ("endpoint_id", "attempted_at" DESC, "id" DESC);
