import type { Instrumentation } from "@opentelemetry/instrumentation";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import type { AppTracing } from "./app-tracing.ts";
import { UNTRACED_PATHS } from "./http-server-spans.ts";
import { sampledPgInstrumentation } from "./sampled-pg-spans.ts";
import { sampledRedisInstrumentation } from "./sampled-redis-spans.ts";

/**
 * The maintained instrumentations every service loads: HTTP in and out (the gateway's API, the
 * authority clients' `node:http` requests, webhook deliveries), Express routes, Redis and
 * PostgreSQL. Redis and PostgreSQL spans only inside a trace (a background poll alone is not
 * one), and only inside a sampled trace (sampled-redis-spans.ts, sampled-pg-spans.ts); Express middleware layers make no spans of their own (one per route handler is enough).
 * RabbitMQ is traced by @dormant/bus itself (see its trace-context.ts), not by the amqplib
 * instrumentation: the bus's messages carry their trace context in their metadata, which a
 * retry, a parked message and a replay keep. An app that makes its own HTTP server spans
 * (`httpServerSpans: "app"`, http-server-spans.ts) gets the HTTP instrumentation for its outgoing
 * requests only, and no Express instrumentation.
 */
export function serviceInstrumentations(app: Pick<AppTracing, "httpServerSpans">, env: NodeJS.ProcessEnv = process.env): Instrumentation[] {
  const ownServerSpans = app.httpServerSpans === "app";
  const make: Record<InstrumentationName, () => Instrumentation> = {
    http: () =>
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: ownServerSpans,
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? "").split("?")[0] ?? ""),
      }),
    express: () => new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    ioredis: () => sampledRedisInstrumentation(),
    pg: () => sampledPgInstrumentation(),
  };
  return enabledInstrumentations(env)
    .filter((name) => !(ownServerSpans && name === "express"))
    .map((name) => make[name]());
}

const INSTRUMENTATIONS = ["http", "express", "ioredis", "pg"] as const;
type InstrumentationName = (typeof INSTRUMENTATIONS)[number];

/** Every instrumentation but those OTEL_NODE_DISABLED_INSTRUMENTATIONS names (comma-separated). */
export function enabledInstrumentations(env: NodeJS.ProcessEnv = process.env): InstrumentationName[] {
  const disabled = new Set((env.OTEL_NODE_DISABLED_INSTRUMENTATIONS ?? "").split(",").map((name) => name.trim()));
  return INSTRUMENTATIONS.filter((name) => !disabled.has(name));
}
