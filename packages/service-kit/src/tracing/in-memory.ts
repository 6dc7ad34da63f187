import { context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import { AlwaysOnSampler, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { installTracerProvider } from "./provider.ts";

/**
 * For tests in one process: installs a tracer provider that samples everything and keeps every
 * finished span in memory (no instrumentation is loaded: the code's own spans, such as the
 * bus's). `getFinishedSpans()` reads them, `reset()` forgets them.
 */
export function recordSpansInMemory(service = "test"): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  installTracerProvider({ service, sampler: new AlwaysOnSampler(), processors: [new SimpleSpanProcessor({ exporter })] });
  return exporter;
}

/** Runs `fn` as if called by a remote caller that sent this `traceparent` (tests). */
export function runAsCallerOf<T>(traceparent: string, fn: () => T): T {
  return context.with(propagation.extract(ROOT_CONTEXT, { traceparent }), fn);
}
