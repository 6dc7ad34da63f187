import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { RequestHandler, Response } from "express";

/** Ops endpoints (probes, scrapes) make no traces. */
export const UNTRACED_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz", "/metrics"]);

/** The instrumentation scope of these spans (what a trace viewer shows as their library). */
export const HTTP_SERVER_SPANS_SCOPE = "@dormant/service-kit/http-server-spans";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The request's SERVER span (traceHttpRequests), for naming it by its route. */
      serverSpan?: Span;
    }
  }
}

/**
 * One SERVER span per request, for an app that answers many small requests per second (the
 * gateway): the caller's W3C `traceparent` is honoured, the span is the active context for
 * everything the request does (log lines, bus messages, Redis and PostgreSQL spans), and it ends
 * when the response finishes or the connection closes.
 *
 * Why not the maintained HTTP and Express instrumentations for incoming requests: they cost the
 * gateway about 85 µs of CPU per request whether or not its trace is sampled (attributes built
 * before the sampler runs, every listener of the request and the response re-bound to the
 * context, a wrapper around every Express layer), a third of its sandbox throughput
 * (docs/benchmarks.md). Here an unsampled request costs a sampler call and one context switch;
 * attributes are set only on a recording span. An app opts in through its package.json
 * (`dormant.tracing.httpServerSpans: "app"`); the preload then leaves its incoming requests to
 * this middleware (see instrumentations.ts). Outgoing requests stay with the HTTP instrumentation.
 *
 * Mount it first. Name the span by its route with `nameServerSpan`. Ops endpoints are not traced.
 */
export function traceHttpRequests(): RequestHandler {
  const tracer = trace.getTracer(HTTP_SERVER_SPANS_SCOPE);
  return (req, res, next) => {
    if (UNTRACED_PATHS.has(req.path)) return next();
    const parent = req.headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, req.headers);
    const method = req.method;
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { "http.request.method": method } }, parent);
    if (span.isRecording()) {
      const queryAt = req.url.indexOf("?");
      span.setAttributes({
        "url.path": queryAt === -1 ? req.url : req.url.slice(0, queryAt),
        "url.scheme": "http",
        "network.protocol.version": req.httpVersion,
        ...(req.socket.remoteAddress ? { "client.address": req.socket.remoteAddress } : {}),
      });
      const onDone = () => {
        res.removeListener("finish", onDone);
        res.removeListener("close", onDone);
        const status = res.statusCode;
        span.setAttribute("http.response.status_code", status);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        if (!res.writableFinished) span.setAttribute("error.type", "connection_closed");
        span.end();
      };
      res.once("finish", onDone);
      res.once("close", onDone);
    }
    res.locals.serverSpan = span;
    context.with(trace.setSpan(parent, span), next);
  };
}

/** Names the request's span by its route (`POST /api/v1/filings/ct600`) and records `http.route`. */
export function nameServerSpan(res: Response, route: string): void {
  const span = res.locals.serverSpan;
  if (span === undefined || !span.isRecording()) return;
  span.updateName(`${res.req.method} ${route}`);
  span.setAttribute("http.route", route);
}
