// The preload that starts tracing before a service's modules load (OpenTelemetry must patch
// them first): `node --import tsx --import @dormant/service-kit/tracing/register src/main.ts`,
// from the app's folder, as `npm start`, the system tests and the benchmark start every app.
// The service is named by OTEL_SERVICE_NAME, else by the app's package name (@dormant/gateway:
// "gateway"); its package.json may say it makes its own HTTP server spans (app-tracing.ts). See
// docs/operations/tracing.md.
import { appTracingOf } from "./app-tracing.ts";
import { startTracing } from "./start.ts";

await startTracing(appTracingOf(process.cwd()));
