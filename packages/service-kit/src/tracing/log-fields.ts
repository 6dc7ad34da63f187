import { context, INVALID_TRACEID, trace } from "@opentelemetry/api";

/**
 * `trace_id` and `span_id` of the span active where a log line is written, for the logger's
 * mixin; nothing outside a span. Unsampled spans have ids too, so every line of a request or a
 * message carries them whether or not its trace is exported.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  // Not trace.isSpanContextValid (two regular expressions per log line): the SDK makes valid ids
  // and the propagator refuses invalid ones; only the API's placeholder context is left out.
  return traceId === INVALID_TRACEID ? {} : { trace_id: traceId, span_id: spanId };
}
