import type { Instrumentation } from "@opentelemetry/instrumentation";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";

/** Ops endpoints (probes, scrapes) make no traces. */
const UNTRACED_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * The maintained instrumentations every service loads: HTTP in and out (the gateway's API, the
 * authority clients' `node:http` requests, webhook deliveries), Express routes, Redis and
 * PostgreSQL. Redis and PostgreSQL spans only inside a trace (a background poll alone is not
 * one); Express middleware layers make no spans of their own (one per route handler is enough).
 * RabbitMQ is traced by @dormant/bus itself (see its trace-context.ts), not by the amqplib
 * instrumentation: the bus's messages carry their trace context in their metadata, which a
 * retry, a parked message and a replay keep.
 */
export function serviceInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? "").split("?")[0] ?? ""),
    }),
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    new IORedisInstrumentation({ requireParentSpan: true }),
    new PgInstrumentation({ requireParentSpan: true }),
  ];
}
