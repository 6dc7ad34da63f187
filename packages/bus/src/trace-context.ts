import { randomBytes } from "node:crypto";
import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

/**
 * The one home of trace context on the bus. Every message carries the W3C `traceparent` (and
 * `tracestate`) of the span that sent it in its metadata (AMQP headers), written and read by
 * OpenTelemetry's propagator; a consumer's or RPC server's span continues that trace. A retry, a
 * parked message and a replay keep the headers, so they stay in the trace of what sent them.
 * Spans: `<type> create` (PRODUCER) for each published message, `<type>` (CLIENT) around an RPC
 * call, and `<type>` (CONSUMER for a message, SERVER for an RPC request) around its handler.
 */

/** Asked for at each use, so that a provider installed later (or again, in tests) is the one used. */
const tracer = () => trace.getTracer("@dormant/bus");

export interface TraceHeaders {
  traceparent: string;
  tracestate?: string;
}

/**
 * The headers of `active` (the current context by default). Without tracing (no SDK started, as
 * in a tool or a unit test) a message still needs a traceparent: a fresh unsampled one.
 */
export function traceHeadersOf(active: Context = context.active()): TraceHeaders {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (carrier.traceparent) {
    return { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) };
  }
  return { traceparent: `00-${nonZeroHex(16)}-${nonZeroHex(8)}-00` };
}

/**
 * The headers of the active span, if there is one: for a message stored to be published later
 * (an outbox row), so that it continues the trace of what wrote it.
 */
export function activeTraceHeaders(): TraceHeaders | undefined {
  const span = trace.getActiveSpan();
  return span && trace.isSpanContextValid(span.spanContext()) ? traceHeadersOf() : undefined;
}

/** The headers for a new message of `type`: those of its PRODUCER span, a child of the current one. */
export function newMessageTraceHeaders(type: string, attributes: Attributes = {}): TraceHeaders {
  const span = tracer().startSpan(`${type} create`, {
    kind: SpanKind.PRODUCER,
    attributes: { "messaging.system": "rabbitmq", "messaging.operation.type": "create", ...attributes },
  });
  span.end();
  return traceHeadersOf(trace.setSpan(context.active(), span));
}

/** Runs an RPC call in a CLIENT span; `fn` gets the headers its request carries. */
export function inRpcClientSpan<T>(type: string, queue: string, fn: (headers: TraceHeaders) => Promise<T>): Promise<T> {
  return inSpan(`${type}`, SpanKind.CLIENT, context.active(), { "rpc.system": "rabbitmq", "rpc.method": type, queue }, (span) =>
    fn(traceHeadersOf(trace.setSpan(context.active(), span))),
  );
}

/** Runs a handler in a span continuing the trace of the message it handles (CONSUMER or SERVER). */
export function inHandlerSpan<T>(
  message: TraceHeaders & { type: string; message_id: string },
  kind: "consumer" | "server",
  queue: string,
  fn: () => Promise<T>,
): Promise<T> {
  const carrier = { traceparent: message.traceparent, ...(message.tracestate ? { tracestate: message.tracestate } : {}) };
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  const attributes = { "messaging.system": "rabbitmq", "messaging.destination.name": queue, "messaging.message.id": message.message_id };
  return inSpan(message.type, kind === "server" ? SpanKind.SERVER : SpanKind.CONSUMER, parent, attributes, () => fn());
}

function inSpan<T>(name: string, kind: SpanKind, parent: Context, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The trace-id part of a traceparent. */
export function traceIdOf(traceparent: string): string | undefined {
  return traceparent.split("-")[1];
}

function nonZeroHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString("hex");
    if (/[^0]/.test(hex)) return hex;
  }
}
