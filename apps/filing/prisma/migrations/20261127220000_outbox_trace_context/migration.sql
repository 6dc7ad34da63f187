-- The trace context (W3C traceparent / tracestate) of the change that wrote an outbox event: the
-- relay publishes the event with it, so billing's capture, the documents and the webhooks of an
-- outcome stay in the trace of the submit (docs/operations/tracing.md). Null for rows written
-- outside a trace (and for rows written before this migration): their publish starts a trace.
ALTER TABLE "outbox" ADD COLUMN "traceparent" TEXT, ADD COLUMN "tracestate" TEXT;
