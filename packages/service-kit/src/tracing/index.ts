export { startTracing, flushTracing } from "./start.ts";
export { appTracingOf, type AppTracing } from "./app-tracing.ts";
export { traceHttpRequests, nameServerSpan, HTTP_SERVER_SPANS_SCOPE } from "./http-server-spans.ts";
export { installTracerProvider } from "./provider.ts";
export type { TracingSettings } from "./provider.ts";
export { samplerFromEnv, DEFAULT_SAMPLER, DEFAULT_SAMPLER_RATIO } from "./sampler.ts";
export { exporterFromEnv } from "./exporter.ts";
export { traceLogFields } from "./log-fields.ts";
export { recordSpansInMemory, runAsCallerOf } from "./in-memory.ts";
