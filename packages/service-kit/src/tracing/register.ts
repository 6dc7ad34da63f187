// The preload that starts tracing before a service's modules load (OpenTelemetry must patch
// them first): `node --import tsx --import @dormant/service-kit/tracing/register src/main.ts`,
// from the app's folder, as `npm start`, the system tests and the benchmark start every app.
// The service is named by OTEL_SERVICE_NAME, else by the app's package name (@dormant/gateway:
// "gateway"). See docs/operations/tracing.md.
import { serviceNameOf } from "./service-name.ts";
import { startTracing } from "./start.ts";

await startTracing(serviceNameOf(process.cwd()));
