import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type Sampler, type SpanExporter, type SpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

export interface TracingSettings {
  service: string;
  version?: string;
  sampler: Sampler;
  /** Where finished spans go, batched; none: spans are made (ids for logs and messages) and dropped. */
  exporter?: SpanExporter;
  /** Processors beside the exporter's (tests record spans in memory with a SimpleSpanProcessor). */
  processors?: SpanProcessor[];
  /** How long a batch waits before it is sent (OTEL_BSP_SCHEDULE_DELAY; 5 s by default). */
  batchDelayMs?: number;
}

/**
 * Makes the process's tracer provider and installs it as the global one, with the W3C
 * `traceparent`/`tracestate` propagator and an AsyncLocalStorage context manager (the context
 * follows async work, as the request context does). Returns the provider, to flush it at exit.
 */
export function installTracerProvider(settings: TracingSettings): TracerProvider {
  const processors = [...(settings.processors ?? [])];
  if (settings.exporter) {
    processors.push(
      new BatchSpanProcessor({
        exporter: settings.exporter,
        ...(settings.batchDelayMs !== undefined ? { scheduledDelayMillis: settings.batchDelayMs } : {}),
      }),
    );
  }
  const provider = new TracerProvider({
    sampler: settings.sampler,
    spanProcessors: processors,
    resource: resourceFromAttributes({
      "service.name": process.env.OTEL_SERVICE_NAME || settings.service,
      "service.version": settings.version ?? process.env.SERVICE_VERSION ?? "1.0.0",
    }),
  });
  // Installed once per process; a second installation (tests) replaces the first.
  if (!context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())) {
    context.disable();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  if (!propagation.setGlobalPropagator(new W3CTraceContextPropagator())) {
    propagation.disable();
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  if (!trace.setGlobalTracerProvider(provider)) {
    trace.disable();
    trace.setGlobalTracerProvider(provider);
  }
  return provider;
}
